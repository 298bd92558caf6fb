import type { RouteSampleTable, SampleValues } from '../../platform/http/route-samples.js';

/**
 * Well-formed values, and one time in 41 one the field refuses: with sixteen fields, the usual one
 * in five would leave a request with every field well-formed one time in four.
 */
const mostly = (often: readonly string[], seldom: readonly string[]): SampleValues => ({ often, seldom, times: 40 });

/** A QR code of https://example.com, 66 pixels a side (lean-qr at scale 1, with its quiet zone), as a PNG in base64. */
const QR_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAEIAAABCAQMAAADZmpKrAAAABlBMVEX///8AAABVwtN+AAAAmUlEQVR42q3OsQoDMQwDUENWQ37l4NZAfl2Q1eBfMWQ1uJT2Crqup+mBBknk6VS28AIJqtOE5bZV8y7Mf+VhN0FXV2FVml27l949vr8ueQp6so7w42ysspjrBGmHny6sqc2Hswom6xQSel99g7Ra6wWWjZIyIYlEIViVMuyz9hM0AltIbulluAlt1F21ZLCgTXewKrfMYj2bF0aEx9XF8RdSAAAAAElFTkSuQmCC';
/** One transparent pixel: a PNG with no code in it. */
const BLANK_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const barcodeSamples: RouteSampleTable = {
  'POST /barcode/decode': {
    example: { body: { image: QR_PNG } },
    // Base64 of no picture ("hello"), and of a PNG cut short, beside text that is no base64.
    body: { image: mostly([QR_PNG, BLANK_PNG], ['aGVsbG8=', QR_PNG.slice(0, 64), 'not base64!']) },
  },
  'GET /barcode/codecs': {},
  /*
   * Sixteen fields, each with values it refuses, and options that depend on each other (content an
   * EAN-13 cannot hold, text options without the text, text under a QR code): drawn each on its
   * own, most combinations would be refused. So the values chosen most are those every codec
   * sampled takes (13 digits with a valid check digit are Code 128, QR, Data Matrix, PDF417 and
   * EAN-13 content alike), the text and its options come together one way in five, a module size
   * and a pixel size one way or the other, never both, and values refused one time in 41; about
   * two requests in three succeed.
   */
  'GET /barcode/gen/:codec': {
    example: { params: { codec: 'qrcode' }, query: { content: 'https://example.com', format: 'png' } },
    params: {
      codec: mostly(
        ['qrcode', 'code128', 'qrcode', 'datamatrix', 'code128', 'pdf417', 'ean13', 'qrcode'],
        ['QRCODE', 'nope'],
      ),
    },
    query: {
      content: mostly(
        ['5901234123457', '5901234123457', '5901234123457', 'https://example.com', 'Hello, world', 'café'],
        ['中文', '5901234123450'],
      ),
      format: mostly(['png', 'svg'], ['gif']),
      scale: mostly(['1', '2', '10'], ['11', '0', '1.5']),
      width: mostly(['300', '640'], ['15', '8193', '300px']),
      heightpx: mostly(['300', '480'], ['16', '-5']),
      height: mostly(['10', '25'], ['1.5', '101', '0']),
      // Given only with its options, which need it true.
      includetext: mostly(['true'], ['false', 'yes']),
      textsize: mostly(['8', '14'], ['3', '40']),
      textcolor: mostly(['B00020', '1f3a93'], ['red', '#B00020']),
      rotate: mostly(['N', 'R', 'L', 'I'], ['X']),
      color: mostly(['1F3A93', '000000', '0a5c36'], ['FFFFFF', 'F00', 'blue']),
      background: mostly(['white', 'transparent', 'FFF5CC'], ['black', '#FFFFFF']),
      quietzone: mostly(['true', 'false'], ['no']),
      eclevel: mostly(['L', 'M', 'Q', 'H'], ['X', 'h']),
    },
    headers: { 'x-format': mostly(['png', 'svg'], ['jpeg']) },
    // A module size, or a box of pixels to fit (scale with width or heightpx is refused); or text
    // under the bars with its options, which mean nothing without it.
    oneWayOf: [
      ['query scale'],
      ['query width'],
      ['query heightpx'],
      ['query width', 'query heightpx'],
      ['query scale', 'query includetext', 'query textsize', 'query textcolor'],
    ],
    // Given seldom, as a caller would: an EC level only a QR code has, a header format the query
    // may contradict.
    rarelyGiven: ['query eclevel', 'headers x-format'],
  },
};
