/** Hands text made in the page to the browser as a downloaded file. */
export function saveTextFile(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Not at once: some browsers (Firefox) start reading the blob only after the click's task. Not
  // never: the URL would hold the blob for the page's life.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Lets the browser download a URL of this site (answered with Content-Disposition: attachment). */
export function followDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}
