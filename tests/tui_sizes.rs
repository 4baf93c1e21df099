//! Issue 15 item 5: the TUI at 40x12, 80x24, 100x30 and 160x45 (TestBackend snapshots in
//! tests/snapshots/tui-*.txt, `UPDATE_SNAPSHOTS=1` after review): no hexadecimal value is
//! ever shown cut (every `0x…` on screen is a whole value of the dump), and cut text ends
//! with `…`.

mod common;
#[path = "common/tui.rs"]
mod tui;
use tui::*;

use std::collections::HashSet;

const SIZES: [(u16, u16); 4] = [(40, 12), (80, 24), (100, 30), (160, 45)];

fn sample_screen(sample: &str, w: u16, h: u16) -> String {
    screen(&mut app_of(&common::samples_dir().join(sample), false), w, h)
}

/// Every hexadecimal number of the dump, without leading zeros.
fn dump_values(sample: &str) -> HashSet<String> {
    let text = std::fs::read_to_string(common::samples_dir().join(sample)).unwrap();
    hex_tokens(&text).into_iter().map(|(v, _)| v).collect()
}

#[test]
fn snapshots_at_four_sizes_show_no_cut_value() {
    let sample = "julia-trampoline-bad-r13.gdb.txt";
    let known = dump_values(sample);
    for (w, h) in SIZES {
        let s = sample_screen(sample, w, h);
        common::assert_snapshot(&format!("tui-{w}x{h}"), &s);
        for (v, next) in hex_tokens(&s) {
            // A value the tool computed (an offset, a sum) is whole too: it is never followed
            // by more hex digits cut off by a pane edge, which would show as a border or `…`
            // right after the token only when the token was cut.
            assert!(
                known.contains(&v) || next != Some('│') && next != Some('…'),
                "{w}x{h}: 0x{v} is not a value of the dump and ends at a cut\n{s}"
            );
            assert!(next != Some('…') || known.contains(&v), "{w}x{h}: 0x{v} cut\n{s}");
        }
    }
}

#[test]
fn cut_rows_end_with_an_ellipsis() {
    let s = sample_screen("julia-trampoline-bad-r13.gdb.txt", 40, 12);
    // The findings' messages are longer than their rows: the last row of each ends with `…`
    // (a word or value that does not fit whole is left out), just before the pane's edge.
    let rows: Vec<&str> =
        s.lines().skip_while(|l| !l.contains("Findings (")).skip(1).take_while(|l| !l.starts_with('└')).collect();
    let cut: Vec<&&str> = rows.iter().filter(|r| r.contains('…')).collect();
    assert_eq!(cut.len(), 2, "{s}");
    for r in cut {
        assert!(r.trim_end_matches('│').trim_end().ends_with('…'), "{r}");
    }
}

/// The region colour legend is on screen (the registers pane's bottom border), and the
/// plain-text report colours register annotations with the same region colours.
#[test]
fn region_legend_on_screen_and_in_the_text_report() {
    let s = sample_screen("julia-trampoline-bad-r13.gdb.txt", 160, 45);
    assert!(s.contains("legend: stack heap code data rodata"), "{s}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--color", "always"])
        .arg(common::samples_dir().join("null-field.gdb.txt"))
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("registers (frame #0):  \x1b[33mstack\x1b[0m \x1b[34mheap\x1b[0m \x1b[31mcode\x1b[0m"), "{t}");
    // rbx points into the stack: yellow, as the TUI's stack colour.
    assert!(t.contains("rbx    0x00007fffffffed68  \x1b[33mstack\x1b[0m"), "{t}");
}
