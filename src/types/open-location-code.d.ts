/** The parts of open-location-code 1.x (CommonJS, untyped) this service uses. */
declare module 'open-location-code' {
  export interface CodeArea {
    readonly latitudeLo: number;
    readonly longitudeLo: number;
    readonly latitudeHi: number;
    readonly longitudeHi: number;
    readonly latitudeCenter: number;
    readonly longitudeCenter: number;
    readonly codeLength: number;
  }

  /** Its methods throw strings, not Errors, on bad input. */
  export class OpenLocationCode {
    isValid(code: string): boolean;
    isShort(code: string): boolean;
    isFull(code: string): boolean;
    encode(latitude: number, longitude: number, codeLength?: number): string;
    decode(code: string): CodeArea;
    recoverNearest(shortCode: string, referenceLatitude: number, referenceLongitude: number): string;
    shorten(code: string, latitude: number, longitude: number): string;
  }
}
