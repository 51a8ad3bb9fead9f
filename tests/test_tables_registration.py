"""Names CPython owns stay CPython's after encspec.register(); encspec.load finds its own."""
import codecs

import encspec


def test_register_does_not_take_over_cpythons_names():
    encspec.register()
    for name in ("shift_jis", "sjis", "cp932", "euc_jp", "euc-kr", "big5", "gb18030"):
        info = codecs.lookup(name)
        assert info.encode.__module__ != "encspec" and "encspec" not in repr(info.encode), name
        assert "encspec" not in (getattr(info.decode, "__module__", "") or ""), name
    # CPython's shift_jis encodes U+00A5 as 5C too; its decoder gives U+005C back (asymmetric)
    assert "\\".encode("shift_jis") == b"\\"


def test_load_finds_the_specs_by_cpythons_names_and_the_whatwg_ones_register():
    for name, spec in (("shift_jis", "shift_jis"), ("sjis", "shift_jis"), ("cp932", "cp932"), ("euc_jp", "euc-jp"),
                       ("euc-kr", "euc-kr"), ("big5", "big5"), ("gb18030", "gb18030"), ("gb18030-2022", "gb18030-2022")):
        assert encspec.load(name).NAME == spec, name
    assert encspec.load("whatwg-shift_jis").NAME == "whatwg-shift_jis"
    encspec.register()
    assert b"\x81\x40".decode("whatwg-shift_jis") == "\u3000"
    assert b"\x80".decode("whatwg-shift_jis") == "\x80"  # the standard's single byte 80
    assert "\u20ac".encode("whatwg-gbk") == b"\x80" and "\u20ac".encode("whatwg-gb18030") == b"\xa2\xe3"
