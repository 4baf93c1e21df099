//! `tracecheck tui --follow`: the App's follow tick driven directly against a temp file that
//! grows in chunks (real transcripts from `sample-traces/`, chunk boundaries mid-line), with
//! a test clock instead of sleeps. Checks that stops appear in order, the view jumps to the
//! newest one and its top finding, a partial line is not parsed, the user who went back to an
//! earlier stop is told instead of moved, notes keep their place, and truncation resets.

mod common;
#[path = "common/tui.rs"]
mod tui;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tracecheck::model::StopKind;
use tracecheck::pipeline::LoadOptions;
use tracecheck::tui::app::{Action, App, Mode, Pane};
use tracecheck::tui::theme::Theme;
use tui::screen;

fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(name)).unwrap()
}

fn temp_log(tag: &str) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-follow-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("session.log")
}

fn append(path: &Path, text: &str) {
    std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
}

fn kinds(app: &App) -> Vec<StopKind> {
    app.trace().stops.iter().map(|s| s.reason.kind).collect()
}

/// A test clock: each tick is a second after the last, so the parse debounce (a few times
/// the last parse's cost) never holds a parse back unless a test asks for it.
struct Clock(Instant);
impl Clock {
    fn tick(&mut self, app: &mut App) -> bool {
        self.tick_after(app, Duration::from_secs(1))
    }
    fn tick_after(&mut self, app: &mut App, d: Duration) -> bool {
        self.0 += d;
        // The parse runs on the follow worker: take its answer before looking.
        let changed = app.follow_tick(self.0);
        app.follow_wait(self.0) | changed
    }
    /// The keys just sent were pressed now, on this clock.
    fn keys_now(&self, app: &mut App) {
        app.last_input = Some(self.0);
    }
}

#[test]
fn follow_good_then_bad_session_in_chunks() {
    let good = sample("julia-trampoline-good-r13.gdb.txt");
    let bad = sample("julia-trampoline-bad-r13.gdb.txt");
    let log = temp_log("chunks");
    let mut clock = Clock(Instant::now());
    let mut app =
        App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() }, Theme::plain());
    assert!(app.follow.as_ref().unwrap().missing);
    assert!(app.trace().stops.is_empty());
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("[following: waiting for the file]"), "{s}");

    // 1. Up to the middle of the breakpoint line: nothing to parse yet but the commands.
    let bp = good.find("Breakpoint 1, 0x").unwrap();
    append(&log, &good[..bp + 10]);
    assert!(clock.tick(&mut app));
    assert!(!app.follow.as_ref().unwrap().missing);
    assert_eq!(app.trace().stops.len(), 0, "the partial stop line must not be parsed");
    assert_eq!(app.follow.as_ref().unwrap().partial(), &good.as_bytes()[bp..bp + 10]);
    assert!(app.ir.raw.as_deref().unwrap().ends_with("\n\n"), "only complete lines are shown");

    // 2. The rest of the breakpoint stop, ending in the middle of the exit line.
    let exit = good.find("[Inferior 1").unwrap();
    append(&log, &good[bp + 10..exit + 5]);
    assert!(clock.tick(&mut app));
    assert_eq!(kinds(&app), [StopKind::Breakpoint], "the half-written exit line is not a stop yet");
    assert_eq!(app.stop, 0);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("[following]"), "{s}");
    assert!(s.contains("! #0") || s.contains("#0  julia_module_callback_4212"), "{s}");

    // 3. The exit line completes: a second stop, and the view moves to it.
    append(&log, &good[exit + 5..]);
    assert!(clock.tick(&mut app));
    assert_eq!(kinds(&app), [StopKind::Breakpoint, StopKind::Exited]);
    assert_eq!(app.stop, 1);

    // Nothing new: a tick changes nothing.
    assert!(!clock.tick(&mut app));
    assert_eq!(app.follow.as_ref().unwrap().parses, 3);

    // 4. The bad run in three chunks, two of them cut mid-line.
    let cuts = [0, bad.len() / 3 + 7, 2 * bad.len() / 3 + 3, bad.len()];
    for w in cuts.windows(2) {
        append(&log, &bad[w[0]..w[1]]);
        clock.tick(&mut app);
    }
    assert_eq!(kinds(&app), [StopKind::Breakpoint, StopKind::Exited, StopKind::Signal]);
    // The view is on the newest stop, its crashing thread and its top finding.
    assert_eq!(app.stop, 2);
    let top = app.current_finding().unwrap();
    assert_eq!((top.rule, top.stop), ("pinned-register", Some(2)));
    assert_eq!(app.current_thread().map(|t| t.crashed), Some(true));
    assert_eq!(app.focus, Pane::Findings);
    assert!(app.highlighted_registers().contains(&"r13"));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("stop 3/3 · SIGSEGV"), "{s}");

    // Incremental reading ends where a one-shot parse of the whole file would.
    let whole = format!("{good}{bad}");
    let once = tracecheck::input::parse_bytes(whole.as_bytes());
    assert_eq!(app.trace(), &once.trace);
    assert_eq!(app.ir.raw.as_deref(), Some(whole.as_str()));
    let batch = tracecheck::analyze::analyze("x", once, &Default::default());
    let rules = |f: &[tracecheck::rules::Finding]| f.iter().map(|f| (f.rule, f.stop, f.frame)).collect::<Vec<_>>();
    assert_eq!(rules(&app.ir.findings), rules(&batch.findings));
    assert_eq!(app.raw_lines.len(), whole.lines().count());

    // Earlier stops stay browsable.
    app.update(Action::PrevStop);
    assert_eq!(app.stop, 1);
    app.update(Action::PrevStop);
    assert_eq!(app.stop, 0);
    assert_eq!(app.current_stop().unwrap().reason.kind, StopKind::Breakpoint);

    // 5. A note on the crash stop's frame #3 while following.
    app.update(Action::NextStop);
    app.update(Action::NextStop);
    app.update(Action::Focus(Pane::Frames));
    app.update(Action::Top);
    for _ in 0..3 {
        app.update(Action::Down);
    }
    app.update(Action::AddNote);
    for c in "thunk where pgcstack belongs".chars() {
        app.update(Action::Input(c));
    }
    // `update` does no I/O: it hands the note to the loop, which saves it.
    let effects = app.update(Action::Open);
    assert!(matches!(effects.as_slice(), [tracecheck::tui::app::Effect::SaveNote { .. }]), "{effects:?}");
    assert!(app.notes.is_empty(), "not saved before the loop performs the effect");
    for e in effects {
        tracecheck::tui::perform(&mut app, e);
    }
    assert!(app.status.as_ref().is_some_and(|(m, _)| m.starts_with("note saved on frame #3")), "{:?}", app.status);

    // 6. The user went back to the first stop just now; another stop arrives (the null-field
    // crash): the view stays, the footer says so.
    app.update(Action::PrevStop);
    app.update(Action::PrevStop);
    assert_eq!(app.stop, 0);
    clock.keys_now(&mut app);
    append(&log, &sample("null-field.gdb.txt"));
    assert!(clock.tick(&mut app));
    assert_eq!(app.trace().stops.len(), 4);
    assert_eq!(app.stop, 0, "the user is looking at stop 1: not moved");
    assert_eq!(app.new_stop, Some(3));
    let s = screen(&mut app, 100, 30);
    assert!(s.lines().last().unwrap().contains("new stop 4 (press ] / End)"), "{s}");
    // The note still sits on its frame (stop 3, frame #3).
    assert_eq!(app.notes.len(), 1);
    app.update(Action::NextStop);
    app.update(Action::NextStop);
    assert_eq!(app.stop, 2);
    app.update(Action::Focus(Pane::Frames));
    assert_eq!(app.frame_notes(3).count(), 1);
    assert!(app.new_stop.is_some(), "still announced: stop 4 not seen yet");
    // End goes to the new stop and follows again.
    app.update(Action::Bottom);
    assert_eq!(app.stop, 3);
    assert_eq!(app.new_stop, None);
    assert!(app.auto);
    assert_eq!(app.current_finding().map(|f| (f.rule, f.stop)), Some(("null-dereference", Some(3))));

    // 7. Back to stop 3, but idle for longer than the grace period: the next stop moves the view.
    app.update(Action::PrevStop);
    assert_eq!(app.stop, 2);
    clock.keys_now(&mut app);
    append(&log, &sample("null-fnptr.gdb.txt"));
    clock.tick_after(&mut app, tracecheck::tui::follow::GRACE + Duration::from_secs(1));
    assert_eq!(app.trace().stops.len(), 5);
    assert_eq!(app.stop, 4);
    assert_eq!(app.new_stop, None);

    // 8. A popup is open (the user is typing a note): the view never moves under it.
    app.update(Action::AddTraceNote);
    append(&log, &sample("null-field.gdb.txt"));
    clock.tick_after(&mut app, Duration::from_secs(60));
    assert_eq!(app.stop, 4);
    assert_eq!(app.new_stop, Some(5));
    app.update(Action::Back);
    assert_eq!(app.mode, Mode::Normal);

    // 9. Truncation (`set logging overwrite on`): read afresh from the start.
    std::fs::write(&log, &good[..exit]).unwrap();
    assert!(clock.tick(&mut app));
    assert_eq!(kinds(&app), [StopKind::Breakpoint]);
    assert_eq!(app.stop, 0);
    assert_eq!(app.ir.raw.as_deref(), Some(&good[..exit]));
    assert!(app.status.as_ref().is_some_and(|(m, _)| m.contains("truncated")), "{:?}", app.status);
    assert_eq!(app.new_stop, None);
}

#[test]
fn parse_waits_for_the_debounce_but_raw_lines_show_at_once() {
    let log = temp_log("debounce");
    let good = sample("julia-trampoline-good-r13.gdb.txt");
    let exit = good.find("[Inferior 1").unwrap();
    append(&log, &good[..exit]);
    let mut app =
        App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() }, Theme::plain());
    assert_eq!(kinds(&app), [StopKind::Breakpoint]);
    let f = app.follow.as_ref().unwrap();
    let next = f.next_parse.unwrap();
    assert!(f.last_parse > Duration::ZERO);
    // A tick before the debounce allows a parse: the raw text grows, the model waits.
    append(&log, &good[exit..]);
    let before = next - f.last_parse * 2;
    assert!(app.follow_tick(before));
    assert!(app.ir.raw.as_deref().unwrap().ends_with("exited normally]\n"));
    assert_eq!(kinds(&app), [StopKind::Breakpoint]);
    assert!(app.follow.as_ref().unwrap().dirty);
    // Then it is handed to the parse worker, without waiting for it: the tick returns with
    // the parse in flight, and its answer is taken once ready.
    app.follow_tick(next);
    assert!(!app.follow.as_ref().unwrap().dirty);
    assert!(app.follow_busy());
    assert!(app.follow_wait(next));
    assert_eq!(kinds(&app), [StopKind::Breakpoint, StopKind::Exited]);
    assert_eq!(app.follow.as_ref().unwrap().parses, 2);
}

/// An rr replay that goes back and forth in time: the stops are listed in the order they
/// were reached, each with its event number (header, `[`/`]` status, the `s` stop list).
const RR_SESSION: &str = "\
(rr) continue
Continuing.

Program received signal SIGSEGV, Segmentation fault.
0x0000555555555155 in session_bytes (s=0x0) at null-field.c:23
23\t    return s->bytes_in;
(rr) when
Current event: 5012
(rr) bt
#0  0x0000555555555155 in session_bytes (s=0x0) at null-field.c:23
#1  0x0000555555555191 in registry_total (r=0x7fffffffec60, upto=2) at null-field.c:30
#2  0x0000555555555254 in main (argc=1, argv=0x7fffffffeda8) at null-field.c:51
(rr) watch -l r->slots[2]
Hardware watchpoint 1: -location r->slots[2]
(rr) reverse-continue
Continuing.

Hardware watchpoint 1: -location r->slots[2]

Old value = (struct session *) 0x0
New value = (struct session *) 0x0
main (argc=1, argv=0x7fffffffeda8) at null-field.c:45
45\t    reg.count = 2;
(rr) when
Current event: 4100
(rr) bt
#0  main (argc=1, argv=0x7fffffffeda8) at null-field.c:45
(rr) continue
Continuing.

Program received signal SIGSEGV, Segmentation fault.
0x0000555555555155 in session_bytes (s=0x0) at null-field.c:23
23\t    return s->bytes_in;
(rr) when
Current event: 5012
";

#[test]
fn rr_session_shows_event_numbers_in_order() {
    let log = temp_log("rr");
    let mut clock = Clock(Instant::now());
    let mut app =
        App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() }, Theme::plain());
    let cut = RR_SESSION.find("(rr) reverse-continue").unwrap();
    append(&log, &RR_SESSION[..cut + 4]);
    clock.tick(&mut app);
    assert_eq!(app.trace().stops.len(), 1);
    let s = screen(&mut app, 100, 30);
    assert!(s.lines().next().unwrap().contains("stop 1/1 · rr event 5012 · SIGSEGV"), "{s}");
    append(&log, &RR_SESSION[cut + 4..]);
    clock.tick(&mut app);
    let events: Vec<Option<u64>> = app.trace().stops.iter().map(|s| s.rr_event).collect();
    assert_eq!(events, [Some(5012), Some(4100), Some(5012)]);
    assert_eq!(app.stop, 2);
    app.update(Action::PrevStop);
    assert_eq!(app.status.as_ref().map(|(m, _)| m.as_str()), Some("stop 2/3 · rr event 4100"));
    let s = screen(&mut app, 100, 30);
    assert!(s.lines().next().unwrap().contains("stop 2/3 · rr event 4100 · watchpoint"), "{s}");
    // The stop list.
    app.update(Action::Stops);
    let s = screen(&mut app, 100, 30);
    let rows: Vec<&str> = s.lines().filter(|l| l.contains("rr event")).skip(1).collect();
    assert_eq!(rows.len(), 3, "{s}");
    assert!(rows[0].contains("1   rr event 5012") && rows[0].contains("SIGSEGV"), "{s}");
    assert!(rows[1].contains("* 2   rr event 4100") && rows[1].contains("watchpoint"), "{s}");
    assert!(rows[2].contains("3   rr event 5012"), "{s}");
    app.update(Action::Top);
    app.update(Action::Open);
    assert_eq!(app.stop, 0);
    assert_eq!(app.mode, Mode::Normal);
}
