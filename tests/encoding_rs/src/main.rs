//! encoding_rs (Firefox's implementation of the WHATWG Encoding Standard) driven in
//! batches: `driver decode LABEL` or `driver encode LABEL`, one line of hex per input
//! on stdin, one answer line per input on stdout.
//!
//! decode: the input's bytes; the answer is the UTF-8 of the decoder's output with
//! replacement (hex), a space, and each error's byte span `start-end`, comma-separated
//! (the decoder without replacement: `Malformed(bad, after)` ends `after` bytes
//! before the bytes read so far and is `bad` bytes long).
//! encode: the input's UTF-8; the answer is the encoder's bytes without the unmappable
//! code points (hex), a space, and the index of each unmappable code point.

use encoding_rs::{DecoderResult, EncoderResult, Encoding};
use std::io::{self, BufRead, Write};

fn unhex(line: &str) -> Vec<u8> {
    (0..line.len() / 2)
        .map(|i| u8::from_str_radix(&line[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8], out: &mut impl Write) {
    for b in bytes {
        write!(out, "{:02x}", b).unwrap();
    }
}

fn join(items: &[String], out: &mut impl Write) {
    write!(out, "{}", items.join(",")).unwrap();
}

fn decode(encoding: &'static Encoding, bytes: &[u8], out: &mut impl Write) {
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    hex(text.as_bytes(), out);
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let room = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).expect("size");
    let mut scratch = vec![0u8; room];
    let (mut read_total, mut written_total) = (0usize, 0usize);
    let mut spans = Vec::new();
    loop {
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(&bytes[read_total..], &mut scratch[written_total..], true);
        read_total += read;
        written_total += written;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => panic!("output buffer too small"),
            DecoderResult::Malformed(bad, after) => {
                let end = read_total - after as usize;
                spans.push(format!("{}-{}", end - bad as usize, end));
            }
        }
    }
    write!(out, " ").unwrap();
    join(&spans, out);
}

fn encode(encoding: &'static Encoding, text: &str, out: &mut impl Write) {
    let mut encoder = encoding.new_encoder();
    let room = encoder.max_buffer_length_from_utf8_without_replacement(text.len()).expect("size");
    let mut buf = vec![0u8; room];
    let (mut read_total, mut written_total, mut chars) = (0usize, 0usize, 0usize);
    let mut refused = Vec::new();
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(&text[read_total..], &mut buf[written_total..], true);
        chars += text[read_total..read_total + read].chars().count();
        read_total += read;
        written_total += written;
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => panic!("output buffer too small"),
            EncoderResult::Unmappable(_) => refused.push((chars - 1).to_string()),
        }
    }
    hex(&buf[..written_total], out);
    write!(out, " ").unwrap();
    join(&refused, out);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let encoding = Encoding::for_label(args[2].as_bytes()).expect("a WHATWG label");
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let bytes = unhex(&line.expect("read"));
        match args[1].as_str() {
            "decode" => decode(encoding, &bytes, &mut out),
            "encode" => encode(encoding, std::str::from_utf8(&bytes).expect("UTF-8"), &mut out),
            mode => panic!("unknown mode {}", mode),
        }
        writeln!(out).unwrap();
    }
}
