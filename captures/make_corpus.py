"""Makes the app-like capture corpus in tests/data/corpus/: small real programs, each standing in for
an app category, run under Valgrind Lackey with ``mobmem capture`` (the SPO-CLOCK paper's own
method). Inputs are generated here, deterministically. Each capture is saved as text (zstd level 19)
with a JSON of its counts and command. Needs valgrind (``make capture-deps``), sqlite3, gzip and perl.

    .venv/bin/python captures/make_corpus.py [--only NAME]

What each runs, and why it resembles its category:
- ``social-feed`` (social app): sqlite3 building a feed — users with avatars, posts with images,
  likes — then paging the timeline and the most recent posts with their like counts: a database
  of blobs written once and read back in time order, as a feed app's cache is.
- ``media-decode`` (streaming app): gzip decompressing a 1.5 MB stream: a decoder's small hot state
  and sliding window over input read once and output written once, as a video or audio decoder's.
- ``game-loop`` (game): perl stepping 150 particles through 60 frames with a collision grid: the
  same state rewritten every frame, a tight code loop.
- ``page-render`` (browser): perl parsing a generated 750-element HTML page into a tree, laying
  it out and serializing it: a script engine walking and rebuilding a document, as a browser's
  renderer does (a JavaScript engine itself is too slow to run under Lackey in CI-sized time).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import zlib
from pathlib import Path

import zstandard

from mobmem.capture import capture

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corpus"

FEED_SQL = """
CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, avatar BLOB);
CREATE TABLE posts(id INTEGER PRIMARY KEY, user INTEGER, t INTEGER, body TEXT, image BLOB);
CREATE TABLE likes(post INTEGER, user INTEGER, t INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 30)
INSERT INTO users SELECT i, 'user' || i, randomblob(512) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200)
INSERT INTO posts SELECT i, abs(random()) % 30 + 1, i * 37, hex(randomblob(120)), randomblob(2048) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 1500)
INSERT INTO likes SELECT abs(random()) % 200 + 1, abs(random()) % 30 + 1, i FROM n;
CREATE INDEX posts_t ON posts(t);
CREATE INDEX likes_post ON likes(post);
WITH RECURSIVE pg(k) AS (SELECT 0 UNION ALL SELECT k+1 FROM pg WHERE k < 5)
SELECT count(*), sum(length(p.image)) FROM pg, (SELECT * FROM posts ORDER BY t DESC LIMIT 20) p;
SELECT p.id, u.name, length(p.image), (SELECT count(*) FROM likes l WHERE l.post = p.id)
  FROM posts p JOIN users u ON u.id = p.user ORDER BY p.t DESC LIMIT 100;
"""

GAME_PL = r"""
my ($n, $frames, $cell) = (150, 60, 32);
srand(7);
my (@x, @y, @vx, @vy);
for my $i (0 .. $n - 1) { $x[$i] = rand 640; $y[$i] = rand 480; $vx[$i] = rand(4) - 2; $vy[$i] = rand(4) - 2 }
my $hits = 0;
for my $f (1 .. $frames) {
    my %grid;
    for my $i (0 .. $n - 1) {
        $x[$i] += $vx[$i]; $y[$i] += $vy[$i];
        $vx[$i] = -$vx[$i] if $x[$i] < 0 || $x[$i] > 640;
        $vy[$i] = -$vy[$i] if $y[$i] < 0 || $y[$i] > 480;
        push @{ $grid{ int($x[$i] / $cell) . ',' . int($y[$i] / $cell) } }, $i;
    }
    for my $c (values %grid) { $hits += @$c * (@$c - 1) / 2 }
}
print "$hits\n";
"""

RENDER_PL = r"""
local $/; my $html = <>;
my @stack = ({ tag => 'root', kids => [] });
while ($html =~ /<(\/?)(\w+)([^>]*)>([^<]*)/g) {
    my ($close, $tag, $attrs, $text) = ($1, $2, $3, $4);
    if ($close) { pop @stack if @stack > 1; next }
    my %a = $attrs =~ /(\w+)="([^"]*)"/g;
    my $node = { tag => $tag, attrs => \%a, text => $text, kids => [] };
    push @{ $stack[-1]{kids} }, $node;
    push @stack, $node unless $tag eq 'img' || $tag eq 'br';
}
sub layout { my ($n, $w, $y) = @_; $n->{y} = $y; $n->{w} = $w; my $h = length($n->{text} // '') / 8 + 1;
    for my $k (@{ $n->{kids} }) { $h += layout($k, $w - 8, $y + $h) } $n->{h} = $h; return $h }
layout($stack[0], 1080, 0);
sub out { my $n = shift; my $s = "<$n->{tag} y=$n->{y} h=" . int($n->{h}) . ">" . ($n->{text} // '');
    $s .= out($_) for @{ $n->{kids} }; return $s . "</$n->{tag}>" }
print length(out($stack[0])), "\n";
"""


def page_html(rng: random.Random) -> str:
    words = ["news", "photo", "friend", "video", "story", "comment", "share", "like", "follow", "home"]
    parts = ["<html><body>"]
    for i in range(150):
        parts.append(f'<div class="card" id="c{i}"><h2>{rng.choice(words)} {i}</h2>')
        for _ in range(3):
            parts.append(f"<p>{' '.join(rng.choice(words) for _ in range(12))}</p>")
        parts.append(f'<img src="i{i}.jpg" width="{rng.randint(100, 999)}"></div>')
    parts.append("</body></html>")
    return "".join(parts)


def media(rng: random.Random) -> bytes:
    # Compressible like encoded media is not, but decoding is the point: frames of slowly changing
    # samples, so the decoder's window matches and copies as a codec's prediction does.
    frame = bytearray(rng.randbytes(4096))
    out = bytearray()
    for _ in range(384):
        for _ in range(64):
            frame[rng.randrange(4096)] = rng.randrange(256)
        out += frame
    return zlib.compress(bytes(out), 6)


def entries(work: Path) -> dict[str, list[str]]:
    rng = random.Random(1)
    (work / "feed.sql").write_text(FEED_SQL)
    gz = work / "media.gz"
    # A gzip member around the zlib stream: header, raw deflate, CRC and size trailer.
    raw = zlib.decompress(media(rng))
    co = zlib.compressobj(6, zlib.DEFLATED, 31)
    gz.write_bytes(co.compress(raw) + co.flush())
    (work / "game.pl").write_text(GAME_PL)
    (work / "render.pl").write_text(RENDER_PL)
    (work / "page.html").write_text(page_html(rng))
    return {
        "social-feed": ["sqlite3", str(work / "feed.db"), "-init", str(work / "feed.sql"), ".quit"],
        "media-decode": ["gzip", "-dc", str(gz)],
        "game-loop": ["perl", str(work / "game.pl")],
        "page-render": ["perl", str(work / "render.pl"), str(work / "page.html")],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="make this capture only")
    ap.add_argument("--out", default=str(OUT), help="output directory")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for tool in ("sqlite3", "gzip", "perl"):
        if shutil.which(tool) is None:
            raise SystemExit(f"make_corpus: {tool} is not installed")
    with tempfile.TemporaryDirectory(prefix="mobmem-corpus-") as d:
        work = Path(d)
        for name, cmd in entries(work).items():
            if a.only and name != a.only:
                continue
            trace, status = capture(cmd)
            if status != 0:
                raise SystemExit(f"make_corpus: {name}: {' '.join(cmd)} exited with {status}")
            txt = work / f"{name}.txt"
            trace.save(str(txt), "text")
            (out / f"{name}.txt.zst").write_bytes(
                zstandard.ZstdCompressor(level=19).compress(txt.read_bytes())
            )
            s = trace.stats()
            info = {k: s[k] for k in ("accesses", "instr", "reads", "writes", "distinct_pages")}
            info["command"] = " ".join(c.replace(str(work), "$WORK") for c in cmd)
            (out / f"{name}.json").write_text(json.dumps(info, indent=1) + "\n")
            print(f"{name}: {info}")


if __name__ == "__main__":
    main()
