//! Trace readers: every format, compression by magic bytes, and every kind of bad input giving an
//! error with the file, the line and the offending text.

mod common;

use mobmem_core::trace::{formats, write_trace, Compression, Kind, Op};
use mobmem_core::{read_trace, Error, ReadOptions, Trace};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir =
        std::env::temp_dir().join(format!("mobmem-fmt-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn read(p: &Path) -> mobmem_core::Result<Trace> {
    read_trace(p, &ReadOptions::default())
}

fn ops(t: &Trace) -> Vec<(u64, Op)> {
    t.accesses.iter().map(|&a| (t.page_numbers[(a >> 2) as usize], Op::from_bits(a))).collect()
}

fn format_err(e: Error) -> (PathBuf, u64, String) {
    match e {
        Error::TraceFormat { path, line, msg } => (path, line, msg),
        e => panic!("expected a format error, got {e:?}"),
    }
}

#[test]
fn text_format() {
    let p = tmp("t.txt", b"# comment\n5 I\n\n6 R\r\n18446744073709551615 W\n7\tw\n");
    let t = read(&p).unwrap();
    assert_eq!(t.format, "text");
    assert_eq!(ops(&t), vec![(5, Op::Instr), (6, Op::Read), (u64::MAX, Op::Write), (7, Op::Write)]);
    assert_eq!((t.skipped.comment_lines, t.skipped.blank_lines), (1, 1));
}

#[test]
fn text_errors_name_file_line_and_value() {
    for (body, line, needle) in [
        (&b"1 R\n2 X\n"[..], 2, "\"X\""),
        (b"1 R\n18446744073709551616 R\n", 2, "18446744073709551616"),
        (b"1 R\n-3 R\n", 2, "-3"),
        (b"1 R\n2 R extra\n", 2, "extra"),
        (b"1 R\n0x10 R\n", 2, "0x10"),
    ] {
        let p = tmp("bad.txt", body);
        let (path, l, msg) = format_err(read(&p).unwrap_err());
        assert_eq!((path, l), (p.clone(), line));
        assert!(msg.contains(needle), "{msg} should name {needle}");
    }
}

#[test]
fn skip_bad_lines_counts_them() {
    let p = tmp("bad.txt", b"1 R\n2 X\n3 W\nzz\n");
    let t = read_trace(&p, &ReadOptions { skip_bad_lines: true, ..Default::default() }).unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!(t.skipped.bad_lines, 2);
    assert!(t.skipped.first_bad_line.as_ref().unwrap().contains(":2:"));
}

#[test]
fn empty_and_comment_only_files_are_errors() {
    for body in [&b""[..], b"\n\n", b"# nothing\n"] {
        let (_, _, msg) = format_err(read(&tmp("e.txt", body)).unwrap_err());
        assert!(msg.contains("empty"), "{msg}");
    }
}

#[test]
fn lackey_format() {
    let body = b"==1== Lackey, an example Valgrind tool\nI  04000000,3\n L 7ff000ffe,4\n S 1000,8\n M 2ffc,8\n==1== \n";
    let t = read(&tmp("l.out", body)).unwrap();
    assert_eq!(t.format, "lackey");
    assert_eq!(
        ops(&t),
        vec![
            (0x4000, Op::Instr),
            // 0x7ff000ffe + 4 bytes crosses into the next page.
            (0x7ff000, Op::Read),
            (0x7ff001, Op::Read),
            (0x1, Op::Write),
            // M crossing 0x2ffc..0x3003: reads of both pages, then writes of both.
            (0x2, Op::Read),
            (0x3, Op::Read),
            (0x2, Op::Write),
            (0x3, Op::Write),
        ]
    );
    assert_eq!(t.skipped.banner_lines, 2);
    let (_, line, msg) = format_err(read(&tmp("l.out", b"I  0400,3\n L zzz,4\n")).unwrap_err());
    assert_eq!(line, 2);
    assert!(msg.contains("zzz"));
    let (_, line, msg) = format_err(read(&tmp("l.out", b"I  0400,3\nhello from the program\n")).unwrap_err());
    assert_eq!(line, 2);
    assert!(msg.contains("hello"));
}

#[test]
fn real_lackey_capture() {
    // valgrind --tool=lackey --trace-mem=yes /bin/true, on this project's machine kind.
    let t = read(&common::data("lackey_true.txt.zst")).unwrap();
    assert_eq!(t.format, "lackey");
    assert!(t.len() > 100_000);
    assert!(t.skipped.banner_lines > 5);
    let s = t.stats(4096);
    assert!(s.instr > s.reads && s.reads > s.writes && s.writes > 0);
}

#[test]
fn csv_format() {
    let body = b"pid,page,op,time_ns,kind,file\n1,10,R,5,file,libc.so\n1,0x11,W,7,anon,\n2,10,I,9,,\n1,10,W,12,,\n";
    let t = read(&tmp("t.csv", body)).unwrap();
    assert_eq!(t.format, "csv");
    assert_eq!(t.len(), 4);
    assert_eq!(t.num_pages(), 3, "(pid 1, page 10) and (pid 2, page 10) are different pages");
    assert_eq!(t.page_pids.as_deref(), Some(&[1, 1, 2][..]));
    assert_eq!(t.times.as_deref(), Some(&[5, 7, 9, 12][..]));
    assert_eq!(t.kind_of(0), Kind::File);
    assert_eq!(t.kind_of(1), Kind::Anon);
    assert_eq!(t.files, vec!["libc.so".to_string()]);
    assert_eq!(t.stats(4096).pids.len(), 2);
}

#[test]
fn csv_errors() {
    for (body, line, needle) in [
        (&b"page,opp\n1,R\n"[..], 1, "opp"),
        (b"op\nR\n", 1, "page"),
        (b"page,op\n1,R,3\n", 2, "expected 2 fields"),
        (b"page,op,kind\n1,R,heap\n", 2, "heap"),
        (b"page,op,kind\n1,R,anon\n1,R,file\n", 3, "declared"),
        (b"page,op,time_ns\n1,R,10\n2,R,5\n", 3, "back in time"),
        (b"page,op,pid\n1,R,99999999999\n", 2, "99999999999"),
    ] {
        let (_, l, msg) = format_err(read(&tmp("bad.csv", body)).unwrap_err());
        assert_eq!(l, line, "{msg}");
        assert!(msg.contains(needle), "{msg} should contain {needle}");
    }
}

#[test]
fn binary_round_trip_all_columns() {
    let body = b"pid,page,op,time_ns,kind,file\n1,10,R,5,file,a.so\n1,11,W,7,anon,\n2,10,I,9,,\n";
    let t = read(&tmp("t.csv", body)).unwrap();
    for comp in [Compression::None, Compression::Zstd, Compression::Gzip] {
        let out = tmp("x.mobt", b"");
        write_trace(&t, &out, "binary", comp).unwrap();
        let back = read(&out).unwrap();
        assert_eq!(back.format, "binary");
        assert_eq!((&back.accesses, &back.page_numbers, &back.page_pids), (&t.accesses, &t.page_numbers, &t.page_pids));
        assert_eq!(
            (&back.times, &back.page_kinds, &back.page_files, &back.files),
            (&t.times, &t.page_kinds, &t.page_files, &t.files)
        );
    }
}

#[test]
fn binary_damage_is_detected() {
    let t = read(&common::data("sqlite_60k.txt.zst")).unwrap();
    let out = tmp("x.mobt", b"");
    write_trace(&t, &out, "binary", Compression::None).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    // Truncated anywhere: an error that says so.
    for cut in [4, 20, 60, bytes.len() / 2, bytes.len() - 3] {
        let p = tmp("cut.mobt", &bytes[..cut]);
        let (_, _, msg) = format_err(read(&p).unwrap_err());
        assert!(
            msg.contains("truncated") || msg.contains("magic") || msg.contains("bytes are left"),
            "cut at {cut}: {msg}"
        );
    }
    // A record naming a page id past the table.
    let mut bad = bytes.clone();
    let rec0 = 40 + 8 * t.num_pages();
    bad[rec0..rec0 + 4].copy_from_slice(&(999_999u32 << 2).to_le_bytes());
    let (_, line, msg) = format_err(read(&tmp("bad.mobt", &bad)).unwrap_err());
    assert_eq!(line, 1);
    assert!(msg.contains("page id 999999"), "{msg}");
    // Trailing garbage.
    let mut extra = bytes.clone();
    extra.extend_from_slice(b"junk");
    let (_, _, msg) = format_err(read(&tmp("x.mobt", &extra)).unwrap_err());
    assert!(msg.contains("after the end marker"), "{msg}");
}

#[test]
fn compression_is_detected_by_magic_not_name() {
    let mut z = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    z.write_all(b"1 R\n2 W\n").unwrap();
    let zbytes = z.finish().unwrap();
    let t = read(&tmp("plain-looking.txt", &zbytes)).unwrap();
    assert_eq!(t.len(), 2);
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    g.write_all(b"1 R\n2 W\n3 I\n").unwrap();
    let gbytes = g.finish().unwrap();
    assert_eq!(read(&tmp("noext", &gbytes)).unwrap().len(), 3);
}

#[test]
fn truncated_compressed_files_are_errors() {
    let body: Vec<u8> = (0..50_000).flat_map(|i| format!("{i} R\n").into_bytes()).collect();
    let mut z = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    z.write_all(&body).unwrap();
    let zbytes = z.finish().unwrap();
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    g.write_all(&body).unwrap();
    let gbytes = g.finish().unwrap();
    for (name, bytes) in [("t.zst", zbytes), ("t.gz", gbytes)] {
        let p = tmp(name, &bytes[..bytes.len() * 2 / 3]);
        let (path, _, msg) = format_err(read(&p).unwrap_err());
        assert_eq!(path, p);
        assert!(msg.contains("truncated or corrupt"), "{name}: {msg}");
    }
}

#[test]
fn missing_file_and_unknown_format() {
    assert!(matches!(read(&PathBuf::from("/no/such/trace.txt")).unwrap_err(), Error::NotFound { .. }));
    let p = tmp("t.txt", b"1 R\n");
    let e = read_trace(&p, &ReadOptions { format: Some("parquet".into()), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("parquet") && e.to_string().contains("known"), "{e}");
}

#[test]
fn every_format_file_has_its_registry_line_and_every_example_reads() {
    // A format file without its line in REGISTRY (or a line without its file) fails here.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/trace/formats");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(String::from))
        .filter(|n| n != "mod")
        .collect();
    files.sort();
    let mut names: Vec<String> = formats::names().into_iter().map(String::from).collect();
    names.sort();
    assert_eq!(names, files);
    // Text is the fallback of sniffing: it comes last.
    assert_eq!(formats::REGISTRY.last().unwrap().name, "text");
    for f in formats::REGISTRY {
        for (i, ex) in f.examples.iter().enumerate() {
            let p = tmp(&format!("ex-{}-{i}", f.name), ex.as_bytes());
            let t = read_trace(&p, &ReadOptions { format: Some(f.name.into()), ..Default::default() });
            assert!(t.is_ok_and(|t| !t.is_empty()), "{} example {i}", f.name);
            // Sniffed, the example is read as its own format.
            assert_eq!(read(&p).unwrap().format, f.name, "{} example {i} sniffed", f.name);
        }
        assert!(!f.examples.is_empty() || f.write.is_some(), "{}: no example and no writer", f.name);
    }
}

#[test]
fn text_and_csv_writers_round_trip() {
    let t = read(&common::data("sqlite_60k.txt.zst")).unwrap();
    for fmt in ["text", "csv"] {
        let out = tmp("o.any", b"");
        write_trace(&t, &out, fmt, Compression::None).unwrap();
        let back = read(&out).unwrap();
        assert_eq!(ops(&back), ops(&t), "{fmt}");
    }
}

/// Byte offsets of the v3 header fields.
const N_ACC: usize = 16;
const N_FILES: usize = 32;

fn sqlite_binary() -> (Trace, Vec<u8>) {
    let t = read(&common::data("sqlite_60k.txt.zst")).unwrap();
    let out = tmp("x.mobt", b"");
    write_trace(&t, &out, "binary", Compression::None).unwrap();
    (t, std::fs::read(&out).unwrap())
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 3).unwrap()
}

#[test]
fn an_uncompressed_binary_trace_is_mapped_when_asked_and_reads_as_a_copied_one() {
    let (t, bytes) = sqlite_binary();
    let mapping = ReadOptions { map: true, ..Default::default() };
    let plain = tmp("m.mobt", &bytes);
    let mapped = read_trace(&plain, &mapping).unwrap();
    let copied = read_trace(&tmp("m.mobt.zst", &zstd(&bytes)), &mapping).unwrap();
    assert!(mapped.accesses.is_mapped(), "an aligned access column of a plain file is used in place");
    assert!(!copied.accesses.is_mapped(), "a compressed file is read, not mapped");
    assert!(!read(&plain).unwrap().accesses.is_mapped(), "not mapped unless asked");
    assert_eq!((&mapped.accesses, &mapped.page_numbers), (&copied.accesses, &copied.page_numbers));
    assert_eq!(mapped.accesses, t.accesses);
    // Damage is found in a mapped file as in a read one.
    let mut bad = bytes.clone();
    let rec0 = 40 + 8 * t.num_pages();
    bad[rec0..rec0 + 4].copy_from_slice(&(999_999u32 << 2).to_le_bytes());
    let msg = format_err(read_trace(&tmp("bad.mobt", &bad), &mapping).unwrap_err()).2;
    assert!(msg.contains("page id 999999"), "{msg}");
    let mut bad = bytes.clone();
    bad[rec0 + 4] ^= 0x04;
    let msg = format_err(read_trace(&tmp("flip.mobt", &bad), &mapping).unwrap_err()).2;
    assert!(msg.contains("checksum mismatch"), "{msg}");
    let mut extra = bytes.clone();
    extra.extend_from_slice(b"junk");
    let msg = format_err(read_trace(&tmp("x.mobt", &extra), &mapping).unwrap_err()).2;
    assert!(msg.contains("after the end marker"), "{msg}");
    let msg = format_err(read_trace(&tmp("cut.mobt", &bytes[..bytes.len() - 3]), &mapping).unwrap_err()).2;
    assert!(msg.contains("truncated"), "{msg}");
    // Written over its own file: the new file is renamed into place, so the mapped one lives on.
    let own = tmp("own.mobt", &bytes);
    let before = read_trace(&own, &mapping).unwrap();
    write_trace(&before, &own, "binary", Compression::None).unwrap();
    assert_eq!(before.accesses, t.accesses);
    assert_eq!(read(&own).unwrap().accesses, t.accesses);
    // A kind column of an odd number of pages puts the access column off a 4-byte boundary: it is
    // copied, and reads the same.
    let body = b"page,op,kind\n1,R,anon\n2,W,file\n3,R,anon\n1,W,anon\n";
    let odd = read(&tmp("k.csv", body)).unwrap();
    assert_eq!(odd.num_pages() % 4, 3);
    let out = tmp("k.mobt", b"");
    write_trace(&odd, &out, "binary", Compression::None).unwrap();
    let back = read_trace(&out, &mapping).unwrap();
    assert!(!back.accesses.is_mapped());
    assert_eq!((&back.accesses, &back.page_kinds), (&odd.accesses, &odd.page_kinds));
}

#[test]
fn binary_counts_cannot_claim_more_than_the_file_holds() {
    let (_, bytes) = sqlite_binary();
    for n in [1u64 << 38, 1 << 33, 6_000_000_000, u64::MAX / 4] {
        let mut bad = bytes.clone();
        bad[N_ACC..N_ACC + 8].copy_from_slice(&n.to_le_bytes());
        // Not compressed: refused from the header, before any column is read.
        let (_, _, msg) = format_err(read(&tmp("big.mobt", &bad)).unwrap_err());
        assert!(msg.contains("bytes are left") || msg.contains("implausible"), "{n}: {msg}");
        // Compressed: the size is unknown up front; the column fills as bytes come, then ends.
        let (_, _, msg) = format_err(read(&tmp("big.mobt.zst", &zstd(&bad))).unwrap_err());
        assert!(msg.contains("truncated") || msg.contains("implausible"), "{n}: {msg}");
    }
}

#[test]
fn binary_checksum_catches_damage_that_keeps_the_file_well_formed() {
    let (t, bytes) = sqlite_binary();
    // A page number in the table: any value is well-formed, only the checksum can tell.
    let page0 = 40;
    for (at, flip) in [(page0, 0x01u8), (page0 + 8 * (t.num_pages() - 1) + 3, 0x80), (40 + 8 * t.num_pages() + 4, 0x04)]
    {
        let mut bad = bytes.clone();
        bad[at] ^= flip;
        let (_, _, msg) = format_err(read(&tmp("flip.mobt", &bad)).unwrap_err());
        assert!(msg.contains("checksum mismatch"), "byte {at}: {msg}");
    }
    // The stored checksum itself.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0xff;
    assert!(format_err(read(&tmp("sum.mobt", &bad)).unwrap_err()).2.contains("checksum mismatch"));
    // A count whose flag is clear may not hold anything.
    let mut bad = bytes.clone();
    bad[N_FILES] = 7;
    assert!(format_err(read(&tmp("files.mobt", &bad)).unwrap_err()).2.contains("flag is clear"));
}

#[test]
fn binary_version_2_files_are_still_read() {
    let (t, bytes) = sqlite_binary();
    let mut v2 = bytes[..bytes.len() - 8].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    let back = read(&tmp("v2.mobt", &v2)).unwrap();
    assert_eq!(back.accesses, t.accesses);
    // A version this mobmem does not know is named.
    let mut v9 = bytes.clone();
    v9[8..12].copy_from_slice(&9u32.to_le_bytes());
    assert!(format_err(read(&tmp("v9.mobt", &v9)).unwrap_err()).2.contains("version 9"));
}

#[test]
fn binary_file_names_are_bounded() {
    let body = b"pid,page,op,kind,file\n1,10,R,file,a.so\n";
    let t = read(&tmp("t.csv", body)).unwrap();
    let out = tmp("f.mobt", b"");
    write_trace(&t, &out, "binary", Compression::None).unwrap();
    let mut bytes = std::fs::read(&out).unwrap();
    // The name's length field follows the page table, pid table, kind table and page-file table.
    let at = 40 + 8 + 4 + 1 + 4;
    assert_eq!(&bytes[at..at + 4], &4u32.to_le_bytes());
    bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let (_, _, msg) = format_err(read(&tmp("f.mobt", &bytes)).unwrap_err());
    assert!(msg.contains("file name of 4294967295 bytes"), "{msg}");
}

#[test]
fn written_files_are_complete_or_absent() {
    let (t, _) = sqlite_binary();
    let dir = tmp("d", b"").parent().unwrap().to_path_buf();
    for (name, fmt, comp) in [
        ("o.mobt", "binary", Compression::None),
        ("o.txt.zst", "text", Compression::Zstd),
        ("o.csv.gz", "csv", Compression::Gzip),
    ] {
        let out = dir.join(name);
        write_trace(&t, &out, fmt, comp).unwrap();
        assert_eq!(read(&out).unwrap().accesses, t.accesses, "{name}");
    }
    // No temporary file is left beside them.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{left:?}");
    // zstd output carries its content checksum (frame header descriptor, bit 2).
    let z = std::fs::read(dir.join("o.txt.zst")).unwrap();
    assert_eq!(&z[..4], &[0x28, 0xb5, 0x2f, 0xfd]);
    assert_ne!(z[4] & 0x04, 0, "content checksum flag");
    // A failed write leaves the destination as it was.
    let missing_dir = dir.join("no-such-dir").join("o.mobt");
    assert!(write_trace(&t, &missing_dir, "binary", Compression::None).is_err());
    assert!(!missing_dir.exists());
}

#[test]
fn a_byte_order_mark_is_skipped_in_every_text_format() {
    for (name, body) in [
        ("t.txt", &b"\xef\xbb\xbf1 R\n2 W\n"[..]),
        ("t.csv", b"\xef\xbb\xbfpage,op\n1,R\n2,W\n"),
        ("t.lackey", b"\xef\xbb\xbfI  0400,4\n S 2000,8\n"),
    ] {
        let t = read(&tmp(name, body)).unwrap();
        assert_eq!(t.len(), 2, "{name}");
    }
}

#[test]
fn lackey_sizes_beyond_one_access_are_refused() {
    for size in ["18446744073709551615", "65537", "4294967296"] {
        let body = format!("I  0400,4\nI  0,{size}\n");
        let (_, line, msg) = format_err(read(&tmp("big.lackey", body.as_bytes())).unwrap_err());
        assert_eq!(line, 2);
        assert!(msg.contains(size), "{msg}");
    }
    // The largest allowed access still covers every page it touches.
    let t = read(&tmp("ok.lackey", b"I  0400,4\n L 0,65536\n")).unwrap();
    assert_eq!(t.len(), 1 + 16);
}

#[test]
fn traces_from_in_memory_columns() {
    let t = Trace::from_pages("cols", &[7, 8, 7, 9], &[1, 2, 0, 1]).unwrap();
    assert_eq!(ops(&t), vec![(7, Op::Read), (8, Op::Write), (7, Op::Instr), (9, Op::Read)]);
    assert_eq!((t.num_pages(), t.format), (3, "memory"));
    for (pages, ops_, needle) in
        [(&[1u64, 2][..], &[1u8][..], "one op per access"), (&[1], &[3], "op 3 at access 0"), (&[], &[], "no accesses")]
    {
        let e = Trace::from_pages("x", pages, ops_).unwrap_err();
        assert!(matches!(&e, Error::Config { .. }) && e.to_string().contains(needle), "{e}");
    }
}

#[test]
fn a_digested_read_hashes_every_byte_of_the_file_as_read_and_is_never_mapped() {
    use sha2::{Digest, Sha256};
    let hex = |b: &[u8]| Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect::<String>();
    let (_, binary) = sqlite_binary();
    let text = b"1 R\n2 W\n3 I\n".to_vec();
    let digest = ReadOptions { digest: true, map: true, ..Default::default() };
    for (name, bytes) in
        [("d.txt", text.clone()), ("d.txt.zst", zstd(&text)), ("d.mobt", binary.clone()), ("d.mobt.zst", zstd(&binary))]
    {
        let p = tmp(name, &bytes);
        let t = read_trace(&p, &digest).unwrap();
        assert_eq!(t.digest.as_deref(), Some(hex(&bytes).as_str()), "{name}");
        assert!(!t.accesses.is_mapped(), "{name}: a digested read passes every byte through the hasher");
        assert_eq!(read(&p).unwrap().digest, None, "{name}: no digest unless asked");
        assert_eq!(read(&p).unwrap().accesses, t.accesses, "{name}");
    }
}
