"""Run time: the decoder core every generated module carries, codecs and error handlers."""
