import { mostly, type RouteSampleTable } from '../../platform/http/route-samples.js';

export const barcodeSamples: RouteSampleTable = {
  'GET /barcode/codecs': {},
  // Nine fields, each with values it refuses: the valid ones come more often, so that some requests succeed.
  'GET /barcode/gen/:codec': {
    example: { params: { codec: 'qrcode' }, query: { content: 'https://example.com', format: 'png' } },
    params: { codec: mostly(['qrcode', 'code128', 'ean13', 'datamatrix', 'pdf417', 'QRCODE'], ['nope']) },
    query: {
      content: ['Hello', '5901234123457', '12345', 'café', '中文'],
      format: mostly(['png', 'svg'], ['gif']),
      scale: mostly(['1', '2', '10'], ['11', '0', '1.5']),
      height: mostly(['10', '100'], ['1.5', '101', '0']),
      includetext: mostly(['true', 'false'], ['yes']),
      rotate: mostly(['N', 'R', 'L', 'I'], ['X']),
      background: ['white', 'transparent', 'black'],
      quietzone: mostly(['true', 'false'], ['no']),
    },
    headers: { 'x-format': mostly(['png', 'svg'], ['jpeg']) },
  },
};
