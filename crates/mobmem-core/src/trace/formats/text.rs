//! The public smartphone memory-trace format: one access per line, `<page_number> <type>`, the page
//! number in decimal, the type `I` (instruction fetch), `R` (data read) or `W` (data write).
//! Blank lines and `#` comments are skipped and counted.

use super::{parse_dec, show, FormatEntry};
use crate::error::Result;
use crate::trace::{LineReader, Op, Trace, TraceBuilder};
use std::io::{self, Write};

pub const FORMAT: FormatEntry = FormatEntry {
    name: "text",
    description: "smartphone trace text: `<page> <I|R|W>` per line",
    sniff: |_| false,
    read,
    write: Some(write),
    extensions: &[".txt", ".trace"],
    examples: &[
        "# a trace\n1 R\n2 W\n3 I\n1 R\n",
        "5 I\n6 r\n7\tw\n18446744073709551615 W\n",
        "1 R\r\n2 R\r\n\n# x\n4 W\n",
    ],
};

fn read(input: &mut LineReader, b: &mut TraceBuilder) -> Result<()> {
    while let Some((n, line)) = input.next_line()? {
        // Fast path: digits, one space, one op letter.
        if let Some(sp) = line.iter().position(|&c| c == b' ') {
            if sp + 2 == line.len() {
                if let (Some(page), Some(op)) = (parse_dec(&line[..sp]), Op::parse(&line[sp + 1..])) {
                    b.push(n, page, op)?;
                    continue;
                }
            }
        }
        let mut fields = line.split(|c| c.is_ascii_whitespace()).filter(|f| !f.is_empty());
        let (Some(page), Some(op), None) = (fields.next(), fields.next(), fields.next()) else {
            if line.iter().all(|c| c.is_ascii_whitespace()) {
                b.skipped().blank_lines += 1;
                continue;
            }
            if line.first() == Some(&b'#') {
                b.skipped().comment_lines += 1;
                continue;
            }
            b.bad_line(n, format!("expected `<page> <I|R|W>`, got {:?}", show(line)))?;
            continue;
        };
        if line.first() == Some(&b'#') {
            b.skipped().comment_lines += 1;
            continue;
        }
        let Some(page_no) = parse_dec(page) else {
            b.bad_line(n, format!("page number {:?} is not a decimal number that fits in 64 bits", show(page)))?;
            continue;
        };
        let Some(op) = Op::parse(op) else {
            b.bad_line(n, format!("access type {:?} is not I, R or W", show(op)))?;
            continue;
        };
        b.push(n, page_no, op)?;
    }
    Ok(())
}

fn write(t: &Trace, w: &mut dyn Write) -> io::Result<()> {
    let mut line = String::with_capacity(32);
    for &a in &t.accesses {
        line.clear();
        use std::fmt::Write as _;
        let _ = writeln!(line, "{} {}", t.page_numbers[(a >> 2) as usize], Op::from_bits(a).letter());
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}
