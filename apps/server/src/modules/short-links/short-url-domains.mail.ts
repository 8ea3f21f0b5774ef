/**
 * The mail a team's owner and admins get when a verified domain stops proving it is theirs and is
 * taken out of use (decision 028). Members have no language of their own on record, so the mail
 * speaks Ukrainian, English and Russian, as the product does.
 */
export function domainLostMail(host: string, settingsUrl: string) {
  return {
    subject: `Домен ${host} більше не використовується / Domain ${host} is out of use`,
    text:
      `Домен ${host} двічі поспіль не підтвердив, що він ваш, тому нові короткі посилання мають адресу Herald. ` +
      `Уже надіслані посилання працюють на адресі Herald. Налаштуйте домен знову й натисніть «Перевірити зараз»: ${settingsUrl}\n\n` +
      `The domain ${host} failed to prove it is yours twice in a row, so new short links use Herald's address. ` +
      `Links already sent keep working on Herald's address. Set the domain up again and press "Verify now": ${settingsUrl}\n\n` +
      `Домен ${host} дважды подряд не подтвердил, что он ваш, поэтому новые короткие ссылки получают адрес Herald. ` +
      `Уже отправленные ссылки работают на адресе Herald. Настройте домен снова и нажмите «Проверить сейчас»: ${settingsUrl}\n`,
  };
}
