/** The permissions of the barcode family: what its routes and use cases ask of who calls them. */
export const BarcodePermission = {
  BarcodeGenerate: 'Barcode::Generate',
  BarcodeDecode: 'Barcode::Decode',
} as const;
