//! CSV with a header naming the columns: `page` and `op` are required; `pid`, `time_ns`, `kind`
//! (`anon`, `file` or empty), `file` and `adj` (the process's `oom_score_adj` from this access on;
//! empty = unchanged) are optional. Plain comma-separated fields (no quoting).
//! `page` is decimal, or hex with a `0x` prefix. An unknown column is an error, not ignored.

use super::{parse_dec, parse_hex, show, FormatEntry};
use crate::error::{Error, Result};
use crate::trace::procs::{parse_adj, MAX_ADJ, MIN_ADJ};
use crate::trace::{Kind, LineReader, Op, Record, Trace, TraceBuilder};
use std::io::{self, Write};

pub const FORMAT: FormatEntry = FormatEntry {
    name: "csv",
    description: "CSV with header: page,op[,pid][,time_ns][,kind][,file][,adj]",
    sniff,
    read,
    write: Some(write),
    extensions: &[".csv"],
    examples: &[
        "page,op\n1,R\n2,W\n1,I\n",
        "pid,page,op,time_ns,kind,file,adj\n1,10,R,5,file,a.so,0\n1,11,W,7,anon,,0\n2,10,I,9,,,900\n2,12,W,11,anon,,-900\n",
        "page,op,pid,adj\n1,R,7,0\n2,W,8,900\n3,R,7,200\n",
    ],
};

const COLUMNS: [&str; 7] = ["page", "op", "pid", "time_ns", "kind", "file", "adj"];

fn sniff(head: &[u8]) -> bool {
    let first = head.split(|&c| c == b'\n').next().unwrap_or(b"");
    let first = String::from_utf8_lossy(first).to_ascii_lowercase();
    first.contains(',') && first.split(',').any(|c| c.trim() == "page")
}

fn read(input: &mut LineReader, b: &mut TraceBuilder) -> Result<()> {
    let Some((_, header)) = input.next_line()? else {
        return Err(Error::format(input.path(), 1, "empty CSV file: no header line"));
    };
    let names: Vec<String> =
        String::from_utf8_lossy(header).split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
    let mut col = [usize::MAX; 7];
    for (i, name) in names.iter().enumerate() {
        match COLUMNS.iter().position(|c| c == name) {
            Some(k) if col[k] == usize::MAX => col[k] = i,
            Some(_) => return Err(Error::format(input.path(), 1, format!("column {name:?} appears twice"))),
            None => {
                return Err(Error::format(
                    input.path(),
                    1,
                    format!("unknown column {name:?}; known: {}", COLUMNS.join(", ")),
                ))
            }
        }
    }
    for req in [0, 1] {
        if col[req] == usize::MAX {
            return Err(Error::format(input.path(), 1, format!("header lacks the required column {:?}", COLUMNS[req])));
        }
    }
    let [_, _, c_pid, c_time, c_kind, c_file, c_adj] = col;
    b.set_columns(c_pid != usize::MAX, c_kind != usize::MAX, c_file != usize::MAX, c_time != usize::MAX);
    let ncols = names.len();
    let mut spans: Vec<(usize, usize)> = Vec::with_capacity(ncols);
    while let Some((n, line)) = input.next_line()? {
        if line.iter().all(|c| c.is_ascii_whitespace()) {
            b.skipped().blank_lines += 1;
            continue;
        }
        // Field spans, reused from line to line (no allocation per line).
        spans.clear();
        let mut start = 0;
        for (i, &c) in line.iter().enumerate() {
            if c == b',' {
                spans.push((start, i));
                start = i + 1;
            }
        }
        spans.push((start, line.len()));
        if spans.len() != ncols {
            b.bad_line(n, format!("expected {ncols} fields, got {}: {:?}", spans.len(), show(line)))?;
            continue;
        }
        let field = |k: usize| line[spans[k].0..spans[k].1].trim_ascii();
        let fields: [&[u8]; 7] = std::array::from_fn(|k| if col[k] == usize::MAX { &b""[..] } else { field(col[k]) });
        let [page_s, op_s, pid_s, time_s, kind_s, file_s, adj_s] = fields;
        let page = match page_s.strip_prefix(b"0x").or_else(|| page_s.strip_prefix(b"0X")) {
            Some(h) => parse_hex(h),
            None => parse_dec(page_s),
        };
        let Some(page) = page else {
            b.bad_line(n, format!("page {:?} is not a 64-bit number", show(page_s)))?;
            continue;
        };
        let Some(op) = Op::parse(op_s) else {
            b.bad_line(n, format!("op {:?} is not I, R or W", show(op_s)))?;
            continue;
        };
        let pid = if c_pid != usize::MAX {
            match parse_dec(pid_s).filter(|&p| p <= u32::MAX as u64) {
                Some(p) => p as u32,
                None => {
                    b.bad_line(n, format!("pid {:?} is not a 32-bit number", show(pid_s)))?;
                    continue;
                }
            }
        } else {
            0
        };
        let time = if c_time != usize::MAX {
            match parse_dec(time_s) {
                Some(t) => Some(t),
                None => {
                    b.bad_line(n, format!("time_ns {:?} is not a number", show(time_s)))?;
                    continue;
                }
            }
        } else {
            None
        };
        let kind = if c_kind != usize::MAX {
            match kind_s {
                b"" => Kind::Unknown,
                k if k.eq_ignore_ascii_case(b"anon") => Kind::Anon,
                k if k.eq_ignore_ascii_case(b"file") => Kind::File,
                k => {
                    b.bad_line(n, format!("kind {:?} is not anon, file or empty", show(k)))?;
                    continue;
                }
            }
        } else {
            Kind::Unknown
        };
        let file = if c_file != usize::MAX && !file_s.is_empty() {
            match std::str::from_utf8(file_s) {
                Ok(f) => Some(f),
                Err(_) => {
                    b.bad_line(n, "file name is not UTF-8".to_string())?;
                    continue;
                }
            }
        } else {
            None
        };
        let adj = if c_adj != usize::MAX && !adj_s.is_empty() {
            match std::str::from_utf8(adj_s).ok().and_then(parse_adj) {
                Some(a) => Some(a),
                None => {
                    b.bad_line(n, format!("adj {:?} is not an oom_score_adj in {MIN_ADJ}..={MAX_ADJ}", show(adj_s)))?;
                    continue;
                }
            }
        } else {
            None
        };
        b.push_full(n, Record { pid, page, op, time, kind, file, adj })?;
    }
    Ok(())
}

fn write(t: &Trace, w: &mut dyn Write) -> io::Result<()> {
    let mut header = vec!["page", "op"];
    if t.page_pids.is_some() {
        header.push("pid");
    }
    if t.times.is_some() {
        header.push("time_ns");
    }
    if t.page_kinds.is_some() {
        header.push("kind");
    }
    if t.page_files.is_some() {
        header.push("file");
    }
    if t.procs.is_some() {
        header.push("adj");
    }
    writeln!(w, "{}", header.join(","))?;
    // Each row carries its process's adj at that access, so a re-read gives the same values.
    let mut adj_now: std::collections::HashMap<u32, i32> =
        t.procs.as_ref().map(|p| p.initial.iter().map(|(&k, &v)| (k, v)).collect()).unwrap_or_default();
    let mut next_change = 0;
    let mut line = String::with_capacity(64);
    for (i, &a) in t.accesses.iter().enumerate() {
        use std::fmt::Write as _;
        let id = (a >> 2) as usize;
        line.clear();
        let _ = write!(line, "{},{}", t.page_numbers[id], Op::from_bits(a).letter());
        if let Some(p) = &t.page_pids {
            let _ = write!(line, ",{}", p[id]);
        }
        if let Some(ts) = &t.times {
            let _ = write!(line, ",{}", ts[i]);
        }
        if let Some(k) = &t.page_kinds {
            line.push_str(match Kind::from_u8(k[id]) {
                Kind::Unknown => ",",
                Kind::Anon => ",anon",
                Kind::File => ",file",
            });
        }
        if let Some(f) = &t.page_files {
            line.push(',');
            if f[id] != u32::MAX {
                line.push_str(&t.files[f[id] as usize]);
            }
        }
        if let Some(p) = &t.procs {
            while next_change < p.changes.len() && p.changes[next_change].at <= i as u64 {
                let c = p.changes[next_change];
                adj_now.insert(c.pid, c.adj);
                next_change += 1;
            }
            let pid = t.page_pids.as_ref().map_or(0, |pp| pp[id]);
            let _ = write!(line, ",{}", adj_now.get(&pid).copied().unwrap_or(0));
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}
