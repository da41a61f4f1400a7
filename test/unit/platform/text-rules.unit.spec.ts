import { isMultiLineText, withoutControlCharacters } from '../../../src/platform/text/text-rules';

describe('taking terminal controls out of free text', () => {
  it.each([
    ['CSI colours', 'plain \u001b[1;31mred\u001b[0m text', 'plain red text'],
    ['cursor movement and erasing', 'a\u001b[2Ab\u001b[2Kc\u001b[?25ld', 'abcd'],
    ['an OSC 8 hyperlink, ST-terminated', '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['an OSC 52 clipboard write, BEL-terminated', 'x\u001b]52;c;cm0gLXJmIH4=\u0007y', 'xy'],
    ['a window title in C1 form', 'x\u009d0;title\u009cy', 'xy'],
    ['a C1 CSI', 'x\u009b2Jy', 'xy'],
    ['a DCS string', 'x\u001bPq#0;2;0;0;0\u001b\\y', 'xy'],
    ['other ESC sequences (reset, charset)', 'x\u001bcy\u001b(Bz', 'xyz'],
    ['BEL, backspace, DEL and C1 controls', 'a\u0007b\u0008c\u007fd\u0085e\u009cf', 'abcdef'],
    ['an unterminated OSC: only its introducer goes', 'x\u001b]0;rest', 'x0;rest'],
    ['a lone ESC at the end', 'x\u001b', 'x'],
  ])('removes %s', (_name, input, expected) => {
    expect(withoutControlCharacters(input)).toBe(expected);
    expect(isMultiLineText(withoutControlCharacters(input))).toBe(true);
  });

  it('keeps tabs, line breaks and every printable character', () => {
    const text = 'Line one\r\n\tLine two\n[31m is text; émoji 🚀, 中文 and U+00A0\u00a0stay';
    expect(withoutControlCharacters(text)).toBe(text);
  });
});
