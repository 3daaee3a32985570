//! Mutations, aimed at what breaks readers: numbers at the edges of their types, counts and sizes
//! in headers, lines repeated, cut or spliced, byte-order marks, and compressed containers. A
//! binary trace's checksum is fixed up after most mutations, so that the damage reaches the
//! fields behind it instead of stopping at the checksum.

use std::io::Write;
use xxhash_rust::xxh3::xxh3_64;

/// The core's seeded generator, with the two draws the mutations use: a run is reproducible from
/// its seed.
pub struct Rng(mobmem_core::trace::gen::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(mobmem_core::trace::gen::Rng::new(seed))
    }
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    fn chance(&mut self, per_cent: u64) -> bool {
        self.0.below(100) < per_cent
    }
}

/// Numbers that sit at the edges of what a field can hold, as text.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "1",
    "1.5",
    "-5",
    "1e300",
    "-1e300",
    "1e-300",
    "NaN",
    "inf",
    "-inf",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "0x10",
    "",
    "1700000000",
    "274877906944",
];
/// The same, as the integers a binary header holds.
const WORDS: &[u64] =
    &[0, 1, 2, 3, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 1 << 32, 1 << 38, 6_000_000_000, u64::MAX, u64::MAX / 4];
const BYTES: &[u8] = &[0, 0xff, 0x7f, 0x80, b'\n', b'\r', b',', b'-', b'9', b' ', b'"', b'[', b'=', b'.'];
/// Largest input made: readers must cope with far larger files, but small inputs run faster.
pub const MAX_LEN: usize = 256 << 10;

fn number_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_hexdigit() || b[i] == b'.') {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

fn line_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            out.push((s, i + 1));
            s = i + 1;
        }
    }
    if s < b.len() {
        out.push((s, b.len()));
    }
    out
}

/// Applies one to four mutations to `input` (`other` is a second seed for splicing).
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        one(rng, &mut b, other);
        // After each mutation: repeated lines would otherwise grow without bound in the supervisor.
        b.truncate(MAX_LEN);
    }
    b.truncate(MAX_LEN);
    fix_checksum(&mut b, rng);
    b
}

fn one(rng: &mut Rng, b: &mut Vec<u8>, other: &[u8]) {
    let len = b.len();
    match rng.below(11) {
        0 if len > 0 => {
            let i = rng.below(len);
            b[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            b[i] = BYTES[rng.below(BYTES.len())];
        }
        2 if len > 0 => {
            let i = rng.below(len);
            let n = (1 + rng.below(16)).min(len - i);
            b.drain(i..i + n);
        }
        3 => {
            let i = rng.below(len + 1);
            let n = 1 + rng.below(8);
            let ins: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            b.splice(i..i, ins);
        }
        4 => {
            let spans = number_spans(b);
            if let Some(&(s, e)) = spans.get(rng.below(spans.len())) {
                b.splice(s..e, NUMBERS[rng.below(NUMBERS.len())].bytes());
            }
        }
        5 if len > 0 => b.truncate(rng.below(len)),
        6 => {
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            b.truncate(cut);
            b.extend_from_slice(&other[from..]);
        }
        7 if len >= 16 => {
            // A header field: an aligned word in the first 64 bytes.
            let w = WORDS[rng.below(WORDS.len())];
            let width = if rng.chance(50) { 8 } else { 4 };
            let at = (8 + 4 * rng.below(14)).min(len - width);
            b[at..at + width].copy_from_slice(&w.to_le_bytes()[..width]);
        }
        8 => {
            let lines = line_spans(b);
            if let Some(&(s, e)) = lines.get(rng.below(lines.len())) {
                let line = b[s..e].to_vec();
                let most = if rng.chance(10) { 5000 } else { 20 };
                let room = MAX_LEN.saturating_sub(b.len()) / line.len().max(1);
                let times = (1 + rng.below(most)).min(room);
                let at = e.min(b.len());
                b.splice(at..at, line.iter().copied().cycle().take(line.len() * times));
            }
        }
        9 => {
            if rng.chance(50) {
                b.splice(0..0, [0xef, 0xbb, 0xbf]);
            } else {
                let crlf: Vec<u8> =
                    b.iter().flat_map(|&c| if c == b'\n' { vec![b'\r', b'\n'] } else { vec![c] }).collect();
                *b = crlf;
            }
        }
        _ => {
            let lines = line_spans(b);
            if let Some(&(s, e)) = lines.get(rng.below(lines.len())) {
                b.drain(s..e);
            }
        }
    }
}

/// A binary trace of version 3 gets the checksum of its (mutated) bytes, most of the time.
fn fix_checksum(b: &mut [u8], rng: &mut Rng) {
    let v3 = b.len() >= 24 && b.starts_with(b"MOBMEMTR") && b[8..12] == 3u32.to_le_bytes();
    if v3 && rng.chance(80) {
        let n = b.len() - 8;
        let sum = xxh3_64(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
    }
}

/// What a gzip or zstd container holds (at most `MAX_LEN` bytes); `None` for anything else.
pub fn decompress(b: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    let r: Box<dyn Read + '_> = if b.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(b))
    } else if b.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(zstd::stream::read::Decoder::new(b).ok()?)
    } else {
        return None;
    };
    let _ = r.take(MAX_LEN as u64).read_to_end(&mut out);
    Some(out)
}

/// Wraps `b` in gzip or zstd (sometimes damaging the compressed bytes too).
pub fn compress(rng: &mut Rng, b: &[u8]) -> Vec<u8> {
    let mut out = if rng.chance(50) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let _ = e.write_all(b);
        e.finish().unwrap_or_default()
    } else {
        zstd::stream::encode_all(b, 1).unwrap_or_default()
    };
    if rng.chance(30) && !out.is_empty() {
        let len = out.len();
        match rng.below(3) {
            0 => out.truncate(rng.below(len)),
            1 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            _ => out.extend_from_slice(b"trailing"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_deterministic_and_bounded() {
        let seed = b"1 R\n2 W\n3 I\n".to_vec();
        let a: Vec<_> = (0..50).map(|i| mutate(&mut Rng::new(i), &seed, b"9 W\n")).collect();
        let b: Vec<_> = (0..50).map(|i| mutate(&mut Rng::new(i), &seed, b"9 W\n")).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|m| m.len() <= MAX_LEN));
        assert!(a.iter().any(|m| m != &seed));
    }
}
