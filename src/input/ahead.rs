//! The second core's share of a big parse: a helper thread runs ahead of the line loop and
//! computes, for each line, the results of the loop's pure per-line functions (the line's
//! cleaning, the pager-prompt search, the gdb frame-line parse, a `bt full` local's trimmed
//! text and brace depth). The line loop ([`Builder`]) stays on the calling thread and reads
//! a result only when it calls that function with exactly the same text (the same bytes at
//! the same address of the input); otherwise, or when the helper has not got there yet, it
//! computes the result itself. So the model is the one the single-threaded parse gives,
//! whatever the helper's timing: the helper only ever saves the loop work it would have done
//! on the same input (docs/performance.md, "2e"). `tests::ahead_*` compare both parses on
//! every sample, with every block handed over, none, and every other one.

use super::{Builder, Limits, clean, gdb};
use crate::model::Parsed;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Inputs shorter than this are parsed on one thread: a thread costs about 0.1 ms to start
/// and the parse of 1 MiB takes about 2.5 ms.
pub const PARALLEL_ABOVE: usize = 1 << 20;

pub use crate::threads::HELPER_STACK;

/// Lines per block handed from the helper to the loop.
pub(crate) const BLOCK: usize = 1024;

/// Lines between two looks for a block the loop entered before the helper handed it over.
const RETRY: usize = 32;

/// Blocks the helper may be ahead by. A helper that waits for room is woken by the loop
/// (a `futex` call on both sides); the bound keeps that rare and the memory small: 88
/// bytes for each frame line and each local with braces (about 35 KB a block of a `bt full`
/// transcript, so at most about 1.1 MB ahead).
const AHEAD_BLOCKS: usize = 8;

/// A piece of a line, as an address and a length (the input outlives both threads, and an
/// address compares cheaply with the text the loop holds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Piece {
    at: usize,
    len: u32,
}

impl Piece {
    fn of(s: &str) -> Option<Piece> {
        Some(Piece { at: s.as_ptr() as usize, len: u32::try_from(s.len()).ok()? })
    }
    /// `s` is exactly this piece.
    #[inline]
    fn is(self, s: &str) -> bool {
        self.at == s.as_ptr() as usize && self.len as usize == s.len()
    }
    /// This piece within `base` (which it lies in when it came from the same input).
    #[cfg(test)]
    fn within(self, base: &str) -> Option<&str> {
        let off = self.at.checked_sub(base.as_ptr() as usize)?;
        base.get(off..off.checked_add(self.len as usize)?)
    }
}

/// A `&str` field of a [`gdb::GdbFrameLine`]: its offset in the line and its length, or
/// one of the two marks below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    off: u32,
    len: u32,
}

impl Field {
    const NONE: Field = Field { off: u32::MAX, len: 0 };
    /// `<signal handler called>` (a literal, not a piece of the line).
    const SIGNAL_HANDLER: Field = Field { off: u32::MAX - 1, len: 0 };

    fn of(v: Option<&str>, line: &str) -> Option<Field> {
        let Some(s) = v else { return Some(Field::NONE) };
        if let Some(off) = (s.as_ptr() as usize).checked_sub(line.as_ptr() as usize)
            && off + s.len() <= line.len()
            && let (Ok(off), Ok(len)) = (u32::try_from(off), u32::try_from(s.len()))
            && off < u32::MAX - 1
        {
            return Some(Field { off, len });
        }
        // Not a piece of the line: only this literal is known to be.
        (s == SIGNAL_HANDLER).then_some(Field::SIGNAL_HANDLER)
    }

    #[inline]
    fn get(self, line: &str) -> Option<Option<&str>> {
        match self {
            Field::NONE => Some(None),
            Field::SIGNAL_HANDLER => Some(Some(SIGNAL_HANDLER)),
            Field { off, len } => line.get(off as usize..off as usize + len as usize).map(Some),
        }
    }
}

/// The one text [`gdb::frame_line`] gives that is not a piece of its line.
const SIGNAL_HANDLER: &str = "<signal handler called>";

/// [`gdb::frame_line`]'s answer, with its text fields as pieces of the line.
#[derive(Clone, Copy, Debug)]
struct FrameAhead {
    index: u32,
    pc: Option<u64>,
    line: Option<u32>,
    function: Field,
    args: Field,
    file: Field,
    module: Field,
    signal_handler: bool,
    truncated: bool,
}

/// What the helper found on a line it had work for.
#[derive(Clone, Copy, Debug)]
enum Found {
    /// `gdb::frame_line(l)` of the cleaned line `l` (`None`: not a frame line).
    Frame(Piece, Option<FrameAhead>),
    /// `brace_depth(t)` of an indented line's text without its blanks, `t`, which holds a brace.
    Braces(Piece, i32),
}

/// One line of a block the helper had work for; the other lines are left to the loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineAhead {
    /// The line's position in its block.
    line: u32,
    found: Found,
}

/// The helper's work on one line: the frame lines and the `bt full` locals with braces,
/// the two costly shapes of a big backtrace (about 1,200 and 360 instructions a line).
fn line_ahead(raw: &str, limits: &Limits) -> Option<Found> {
    let first = *raw.as_bytes().first()?;
    if raw.len() > limits.max_line_len || !matches!(first, b'#' | b' ' | b'\t') {
        return None;
    }
    if first != b'#' && !super::finish::has_brace(raw.as_bytes()) {
        return None;
    }
    let (cleaned, marks) = clean::clean_line(raw);
    let std::borrow::Cow::Borrowed(l) = cleaned else { return None };
    if marks.fence {
        return None;
    }
    if first == b'#' {
        let lp = Piece::of(l)?;
        // A frame line that cannot be told in pieces is left to the loop.
        return match gdb::frame_line(l) {
            None => Some(Found::Frame(lp, None)),
            Some(g) => Some(Found::Frame(lp, Some(frame_ahead(&g, l)?))),
        };
    }
    let t = l[clean::leading_spaces(l.as_bytes())..].trim_ascii();
    if !super::finish::has_brace(t.as_bytes()) {
        return None;
    }
    Some(Found::Braces(Piece::of(t)?, super::finish::brace_depth(t)))
}

impl PartialEq for FrameAhead {
    fn eq(&self, o: &Self) -> bool {
        (self.index, self.pc, self.line, self.function, self.args, self.file, self.module)
            == (o.index, o.pc, o.line, o.function, o.args, o.file, o.module)
            && (self.signal_handler, self.truncated) == (o.signal_handler, o.truncated)
    }
}

fn frame_ahead(g: &gdb::GdbFrameLine<'_>, l: &str) -> Option<FrameAhead> {
    Some(FrameAhead {
        index: g.index,
        pc: g.pc,
        line: g.line,
        function: Field::of(g.function, l)?,
        args: Field::of(g.args, l)?,
        file: Field::of(g.file, l)?,
        module: Field::of(g.module, l)?,
        signal_handler: g.signal_handler,
        truncated: g.truncated,
    })
}

/// The lines handed over: what the helper found in one block, and the loop's line in it.
#[derive(Clone, Default)]
pub(crate) struct Ahead {
    found: Vec<LineAhead>,
    /// The next entry of `found` that may be the loop's line or a later one.
    next: usize,
    line: u32,
}

impl Ahead {
    /// A new block (empty: nothing handed over), with the loop at its line `line`.
    fn start(&mut self, found: Vec<LineAhead>, line: u32) {
        self.found = found;
        self.next = self.found.partition_point(|a| a.line < line);
        self.line = line;
    }
    /// The loop moves on to the next line of the block.
    #[inline]
    fn step(&mut self) {
        self.line += 1;
        while self.found.get(self.next).is_some_and(|a| a.line < self.line) {
            self.next += 1;
        }
    }
    #[inline]
    fn current(&self) -> Option<&Found> {
        self.found.get(self.next).filter(|a| a.line == self.line).map(|a| &a.found)
    }
}

impl Builder {
    /// `gdb::frame_line(l)`, from the helper when it computed it for this very `l`.
    #[inline]
    pub(super) fn frame_line_ahead<'l>(&self, l: &'l str) -> Option<gdb::GdbFrameLine<'l>> {
        if let Some(Found::Frame(p, f)) = self.ahead.current()
            && p.is(l)
        {
            let Some(f) = f else { return None };
            if let (Some(function), Some(args), Some(file), Some(module)) =
                (f.function.get(l), f.args.get(l), f.file.get(l), f.module.get(l))
            {
                return Some(gdb::GdbFrameLine {
                    index: f.index,
                    pc: f.pc,
                    function,
                    args,
                    file,
                    line: f.line,
                    module,
                    signal_handler: f.signal_handler,
                    truncated: f.truncated,
                });
            }
        }
        gdb::frame_line(l)
    }

    /// The brace depth `t` adds (`None` when it holds no brace).
    #[inline]
    pub(super) fn brace_depth_ahead(&self, t: &str) -> Option<i32> {
        if let Some(Found::Braces(p, d)) = self.ahead.current()
            && p.is(t)
        {
            return Some(*d);
        }
        super::finish::has_brace(t.as_bytes()).then(|| super::finish::brace_depth(t))
    }
}

/// How the loop takes the helper's blocks (tests choose; the program races).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Handover {
    /// The loop never waits: a block is used from the line the loop is at when it is handed
    /// over (looked for at the block's start and every `RETRY` lines); the helper works on the
    /// block after the loop's and skips the blocks the loop has passed.
    Race,
    /// The loop waits for every block (a test: every line read from the helper).
    Every,
    /// The loop waits for the odd blocks and drops the even ones (a test: the handover
    /// switching on and off at block boundaries).
    Odd,
}

/// The lines of `text` as [`super::parse_with`] feeds them: split at `\n`, the last one
/// after the last `\n` (possibly empty).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memchr(b'\n', r.as_bytes()) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Whether the helper may run: [`crate::threads::second_core`] (re-exported here for the
/// JSON writer).
pub use crate::threads::second_core;

/// [`super::parse_with`] with the helper thread (`block`: lines per handed-over block).
pub(crate) fn parse_with(text: &str, limits: Limits, handover: Handover, block: usize) -> Parsed {
    let block = block.max(1);
    // The block the loop is at: the helper skips blocks before it.
    let loop_at = AtomicUsize::new(0);
    let (tx, rx) = mpsc::sync_channel::<(usize, Vec<LineAhead>)>(AHEAD_BLOCKS);
    std::thread::scope(|s| {
        let helper = std::thread::Builder::new().name("parse-ahead".into()).stack_size(HELPER_STACK).spawn_scoped(s, {
            let loop_at = &loop_at;
            move || {
                let mut it = lines(text);
                let mut b = 0usize;
                loop {
                    // In a race, skip the block the loop is in and those it has passed: what
                    // is handed over after the loop entered a block is not used.
                    let skip_to = match handover {
                        Handover::Race => loop_at.load(Ordering::Relaxed) + 1,
                        _ => 0,
                    };
                    if b < skip_to {
                        if it.by_ref().take(block * (skip_to - b)).count() < block * (skip_to - b) {
                            return;
                        }
                        b = skip_to;
                        continue;
                    }
                    let mut v: Vec<LineAhead> = Vec::with_capacity(block / 2);
                    let mut count = 0;
                    for l in it.by_ref().take(block) {
                        if let Some(found) = line_ahead(l, &limits) {
                            v.push(LineAhead { line: count, found });
                        }
                        count += 1;
                    }
                    if count == 0 {
                        return;
                    }
                    let short = (count as usize) < block;
                    if handover == Handover::Odd && b.is_multiple_of(2) {
                        // Computed and dropped: the loop must not need it.
                    } else if tx.send((b, v)).is_err() {
                        return;
                    }
                    if short {
                        return;
                    }
                    b += 1;
                }
            }
        });
        let mut builder = Builder::new(limits);
        let mut pending: Option<(usize, Vec<LineAhead>)> = None;
        let mut n: u32 = 0;
        let helping = helper.is_ok();
        // The block the loop is in while it has not been handed over: looked for again every
        // `RETRY` lines (the helper may finish it meanwhile; its later lines are then used).
        let mut missing: Option<usize> = None;
        let mut receive = |b: usize, wait: bool| -> Option<Vec<LineAhead>> {
            loop {
                let got = match pending.take() {
                    Some(p) => p,
                    None if wait => rx.recv().ok()?,
                    None => rx.try_recv().ok()?,
                };
                match got {
                    (gb, v) if gb == b => return Some(v),
                    // A block the loop has passed.
                    (gb, _) if gb < b => continue,
                    later => {
                        pending = Some(later);
                        return None;
                    }
                }
            }
        };
        for (k, l) in lines(text).enumerate() {
            if helping {
                let (b, at) = (k / block, k % block);
                if at == 0 {
                    loop_at.store(b, Ordering::Relaxed);
                    builder.ahead.start(Vec::new(), 0);
                    missing = Some(b);
                } else {
                    builder.ahead.step();
                }
                if let Some(mb) = missing
                    && (at == 0 || at % RETRY == 0)
                {
                    let wait = at == 0
                        && match handover {
                            Handover::Race => false,
                            Handover::Every => true,
                            Handover::Odd => b % 2 == 1,
                        };
                    if let Some(v) = receive(mb, wait) {
                        builder.ahead.start(v, at as u32);
                        missing = None;
                    }
                }
            }
            n = n.saturating_add(1);
            builder.feed_bounded(l, n);
        }
        builder.ahead = Ahead::default();
        drop(rx);
        if let Ok(h) = helper {
            // A panic there (none is known) only cost the help; the loop computed everything.
            let _ = h.join();
        }
        builder.finish_lines(text.ends_with('\n'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_split_at_newlines() {
        for t in ["", "a", "a\n", "a\nb", "\n\n", "a\r\nb\n\nc"] {
            let want: Vec<&str> = t.split('\n').collect();
            let got: Vec<&str> = lines(t).collect();
            assert_eq!(got, want, "{t:?}");
            // The same addresses: the helper's pieces must be the loop's.
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.as_ptr(), w.as_ptr());
            }
        }
    }

    /// Every transcript of the repository (`sample-traces/`, `tests/wild/`, under 3 MB).
    fn transcripts() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let mut dirs = vec![root.join("sample-traces"), root.join("tests/wild")];
        while let Some(d) = dirs.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "txt")
                    && let Ok(b) = std::fs::read(&p)
                    && b.len() < 3 << 20
                {
                    out.push((p, b));
                }
            }
        }
        out.sort();
        out
    }

    /// The same model, whatever the helper handed over and when.
    fn same_model(text: &str, what: &str) {
        let limits = Limits::default();
        let want = format!("{:?}", super::super::parse_one_thread(text, limits));
        for block in [1, 2, 3, 7, 64, BLOCK] {
            for h in [Handover::Every, Handover::Odd, Handover::Race] {
                let got = format!("{:?}", parse_with(text, limits, h, block));
                assert!(got == want, "{what}: block {block}, {h:?}: the model differs from the one-thread parse");
            }
        }
    }

    #[test]
    fn ahead_gives_the_one_thread_model_on_every_transcript() {
        let all = transcripts();
        assert!(all.len() > 100, "{} transcripts", all.len());
        let mut frames_ahead = 0;
        for (p, b) in &all {
            // The damaged ones go through `parse_bytes`' line-by-line decoding, not here.
            let Ok(text) = std::str::from_utf8(b) else { continue };
            same_model(text, &p.display().to_string());
            frames_ahead += lines(text).filter_map(|l| line_ahead(l, &Limits::default())).count();
        }
        assert!(frames_ahead > 1000, "the helper had work: {frames_ahead} lines");
    }

    #[test]
    fn ahead_gives_the_one_thread_model_on_odd_lines() {
        // Lines the helper leaves alone or must not misread: cut-off frames, CR, escapes,
        // fences, quote prefixes, a line over the length limit, a frame continued on the next
        // line, braces in strings, unbalanced braces, no final newline.
        let long = format!("#0  0x1 in f (a={}) at a.c:1", "x".repeat(70 * 1024));
        let text = [
            "(gdb) thread apply all bt full",
            "",
            "Thread 2 (Thread 0x7f (LWP 12)):",
            "#0  0x00007f in f (a=1, ",
            "    b=2) at x.c:5",
            "        s = {a = 1, b = {c = \"}\", d = '{'}}",
            "        t = {",
            "          x = 1",
            "        }",
            "#1  0x00007e in g () at y.c:7\r",
            "\u{1b}[31m#2  0x00007d in h () at z.c:9\u{1b}[0m",
            "> #3  0x00007c in i () at w.c:1",
            "```",
            "#4  <signal handler called>",
            "#5  0x00007b in ?? () from /lib/libc.so.6",
            "        u = }}}",
            &long,
            "#6  0x0000000000000000 in ?? ()",
            "Backtrace stopped: previous frame inner to this frame (corrupt stack?)",
            "#7  0x00007a in j (s=0x1 \"a \\\" b\") at v.c:2",
            "        v = {",
        ]
        .join("\n");
        same_model(&text, "odd lines");
        same_model(&format!("{text}\n"), "odd lines, final newline");
    }

    #[test]
    fn results_for_other_text_are_not_used() {
        // The helper's answers for one text, offered while the loop parses another text of the
        // same lines at other addresses (and a third whose frames differ): nothing is taken.
        let a = "Thread 1 (LWP 1):\n#0  0x1 in f (a=1) at a.c:1\n        x = {y = 1}\n#1  0x2 in g () at b.c:2\n";
        let b = a.replace("f (a=1)", "k (q=9)").replace("{y = 1}", "{{{y = 1}");
        let want = format!("{:?}", super::super::parse_one_thread(a, Limits::default()));
        for other in [a.to_string(), b] {
            let found: Vec<LineAhead> = lines(&other)
                .enumerate()
                .filter_map(|(k, l)| Some(LineAhead { line: k as u32, found: line_ahead(l, &Limits::default())? }))
                .collect();
            assert!(found.len() >= 3);
            let mut builder = Builder::new(Limits::default());
            builder.ahead.start(found, 0);
            let mut n = 0;
            for (k, l) in lines(a).enumerate() {
                if k > 0 {
                    builder.ahead.step();
                }
                // What the loop would take from the helper: nothing, the text is another one.
                if let Some(Found::Frame(p, _) | Found::Braces(p, _)) = builder.ahead.current() {
                    assert!(!p.is(l) && !p.is(l.trim()), "{l}");
                }
                n += 1;
                builder.feed_bounded(l, n);
            }
            let got = format!("{:?}", builder.finish_lines(true));
            assert!(got == want, "the model differs");
        }
    }

    #[test]
    fn an_entry_is_small() {
        // The memory the helper may be ahead by (`AHEAD_BLOCKS`) is counted in these.
        assert!(std::mem::size_of::<LineAhead>() <= 88, "{}", std::mem::size_of::<LineAhead>());
    }

    #[test]
    fn pieces_are_exact() {
        let s = "#1  0x1 in f (a=1) at x.c:2";
        let p = Piece::of(&s[4..7]).unwrap();
        assert!(p.is(&s[4..7]));
        assert!(!p.is(&s[4..8]));
        assert!(!p.is(&s[5..8]));
        assert_eq!(p.within(s), Some("0x1"));
        assert_eq!(p.within(&s[5..]), None, "starts before the base");
        assert_eq!(p.within(&s[..6]), None, "ends after the base");
    }

    #[test]
    fn frame_lines_are_told_in_pieces() {
        for l in [
            "#0  0x0000555555555139 in main () at t.c:2",
            "#3  <signal handler called>",
            "#7  0x00007ffff7e5c1a4 in ?? () from /lib/x86_64-linux-gnu/libc.so.6",
            "#9  0x0000555555555189 in worker (arg=0x55555555",
            "#1  0x00007f in f (s=\"a\\\"b\", t={x = 1}) at /src/a b.c:12",
            "#include <stdio.h>",
        ] {
            let found = line_ahead(l, &Limits::default()).expect("a frame line is the helper's");
            assert!(matches!(found, Found::Frame(_, Some(_))) == gdb::frame_line(l).is_some(), "{l}");
            let mut b = Builder::new(Limits::default());
            b.ahead.start(vec![LineAhead { line: 0, found }], 0);
            assert_eq!(b.frame_line_ahead(l), gdb::frame_line(l), "{l}");
        }
    }
}
