/** Control characters (C0, DEL, C1): never part of a name, a label, a password or a place. */
const CONTROL = /\p{Cc}/u;

export const hasControlCharacter = (text: string): boolean => CONTROL.test(text);
