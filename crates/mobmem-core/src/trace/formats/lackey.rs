//! Valgrind Lackey output (`valgrind --tool=lackey --trace-mem=yes PROG`): `I  addr,size`,
//! ` L addr,size`, ` S addr,size`, ` M addr,size`, hex addresses, page = address >> 12.
//! `M` (modify) is a read then a write. An access that crosses a page boundary touches every page
//! it covers (all reads before the writes for `M`); a size above 64 KiB is a malformed line. Valgrind's own lines (`==pid== …`, `--pid-- …`)
//! are skipped and counted as banner lines; any other line is malformed.

use super::{parse_hex, show, FormatEntry};
use crate::error::Result;
use crate::trace::{LineReader, Op, TraceBuilder};

pub const FORMAT: FormatEntry = FormatEntry {
    name: "lackey",
    description: "Valgrind Lackey --trace-mem=yes output",
    sniff,
    read,
    write: None,
    extensions: &[],
    examples: &[
        "==123== Lackey\nI  04000000,3\n L 1ffefff000,8\n S 1ffefff008,8\n M 0402a000,4\n",
        "I  0400fff,4\n L 0fff,2\n M 1ffe,4096\n",
        "--1-- banner\n\nI  0,1\n",
    ],
};

const PAGE_SHIFT: u32 = 12;
/// Largest access a line may describe. Lackey reports one instruction's data access: at most an
/// XSAVE area (a few KiB), far below this; a larger size is a damaged line, not an access, and
/// bounding it bounds the pages one line can add.
pub const MAX_ACCESS_BYTES: u64 = 64 << 10;

fn sniff(head: &[u8]) -> bool {
    head.starts_with(b"==")
        || head.starts_with(b"--")
        || head.starts_with(b"I  ")
        || head.starts_with(b" L ")
        || head.starts_with(b" S ")
        || head.starts_with(b" M ")
}

fn read(input: &mut LineReader, b: &mut TraceBuilder) -> Result<()> {
    while let Some((n, line)) = input.next_line()? {
        if line.len() < 4 {
            if line.iter().all(|c| c.is_ascii_whitespace()) {
                b.skipped().blank_lines += 1;
            } else {
                b.bad_line(n, format!("not a Lackey line: {:?}", show(line)))?;
            }
            continue;
        }
        let kind = match &line[..3] {
            b"I  " => b'I',
            b" L " => b'L',
            b" S " => b'S',
            b" M " => b'M',
            _ => {
                if line.starts_with(b"==") || line.starts_with(b"--") {
                    b.skipped().banner_lines += 1;
                } else {
                    b.bad_line(n, format!("not a Lackey line: {:?}", show(line)))?;
                }
                continue;
            }
        };
        let rest = &line[3..];
        let Some(comma) = rest.iter().position(|&c| c == b',') else {
            b.bad_line(n, format!("expected `addr,size`, got {:?}", show(rest)))?;
            continue;
        };
        let addr_s = rest[..comma].trim_ascii();
        let size_s = rest[comma + 1..].trim_ascii();
        let Some(addr) = parse_hex(addr_s) else {
            b.bad_line(n, format!("address {:?} is not a 64-bit hex number", show(addr_s)))?;
            continue;
        };
        let Some(size) = super::parse_dec(size_s) else {
            b.bad_line(n, format!("size {:?} is not a decimal number", show(size_s)))?;
            continue;
        };
        if size > MAX_ACCESS_BYTES {
            b.bad_line(n, format!("size {size} is larger than one access can be (at most {MAX_ACCESS_BYTES} bytes)"))?;
            continue;
        }
        let first = addr >> PAGE_SHIFT;
        let last = addr.saturating_add(size.max(1) - 1) >> PAGE_SHIFT;
        let op = match kind {
            b'I' => Op::Instr,
            b'L' | b'M' => Op::Read,
            _ => Op::Write,
        };
        for p in first..=last {
            b.push(n, p, op)?;
        }
        if kind == b'M' {
            for p in first..=last {
                b.push(n, p, Op::Write)?;
            }
        }
    }
    Ok(())
}
