import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type MailComposer from 'nodemailer/lib/mail-composer';
import type { DeliveryOutcome, Mailer, RenderedMessage } from '../domain/ports.js';
import { composedMessage } from './nodemailer-message.js';

/**
 * Each message written as `<folder>/<id>.eml`, the RFC 5322 file any mail program opens, Bcc
 * included: how `npm start` "sends" with no mail server configured. A second attempt at the same
 * message writes the same file again; a file is whole or absent (written aside, then renamed).
 */
export class EmlFileMailer implements Mailer {
  constructor(private readonly folder: string) {}

  async send(message: RenderedMessage): Promise<DeliveryOutcome> {
    const file = join(this.folder, `${message.id}.eml`);
    try {
      // Loaded with the first message: a process that writes none (the CLI, most servers) starts without nodemailer.
      const Composer = createRequire(import.meta.url)('nodemailer/lib/mail-composer') as typeof MailComposer;
      const root = new Composer(composedMessage(message)).compile();
      root.keepBcc = true;
      const bytes = await root.build();
      await mkdir(this.folder, { recursive: true });
      await writeFile(`${file}.part`, bytes);
      await rename(`${file}.part`, file);
      return { kind: 'accepted' };
    } catch (error) {
      // A full disk or a folder made unwritable may pass.
      return { kind: 'retry', reason: `cannot write ${file}: ${(error as Error).message}` };
    }
  }

  async close(): Promise<void> {}
}
