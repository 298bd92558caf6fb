/** What `POST /api/token/create` answers, as the tests read it (the fields every version had). */
export interface CreatedToken {
  token: string;
  id: string;
  prefix: string;
  license: string;
  username: string;
  firebaseuid: string;
  permissions: string[];
  expiresAt: string | null;
  issuedBy: { uid: string; username: string } | null;
}
