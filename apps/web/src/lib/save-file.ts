/** Hands text made in the page to the browser as a downloaded file. */
export function saveTextFile(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the next task; the URL would otherwise hold it for the page's life.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
