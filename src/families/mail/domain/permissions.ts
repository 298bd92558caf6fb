/** The permissions of the mail family: what its routes and use cases ask of who calls them. */
export const MailPermission = {
  MailSend: 'Mail::Send',
  MailRead: 'Mail::Read',
} as const;
