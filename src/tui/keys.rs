//! The one place keys and mouse events become [`Action`]s. The normal-mode key map is a
//! table, so the help text (`assets/help.txt`) can be checked against it in tests.

use super::app::{Action, ModeKind, Pane};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

const N: KeyModifiers = KeyModifiers::NONE;
const C: KeyModifiers = KeyModifiers::CONTROL;

/// Normal mode: (key, modifiers, action, how `assets/help.txt` spells the key).
pub const NORMAL: &[(KeyCode, KeyModifiers, Action, &str)] = &[
    (KeyCode::Up, N, Action::Up, "↑"),
    (KeyCode::Char('k'), N, Action::Up, "k"),
    (KeyCode::Down, N, Action::Down, "↓"),
    (KeyCode::Char('j'), N, Action::Down, "j"),
    (KeyCode::PageUp, N, Action::PageUp, "PgUp"),
    (KeyCode::Char('b'), C, Action::PageUp, "Ctrl-b"),
    (KeyCode::PageDown, N, Action::PageDown, "PgDn"),
    (KeyCode::Char('f'), C, Action::PageDown, "Ctrl-f"),
    (KeyCode::Char(' '), N, Action::PageDown, "Space"),
    (KeyCode::Char('g'), N, Action::Top, "g"),
    (KeyCode::Home, N, Action::Top, "Home"),
    (KeyCode::Char('G'), N, Action::Bottom, "G"),
    (KeyCode::End, N, Action::Bottom, "End"),
    (KeyCode::Left, N, Action::Left, "←"),
    (KeyCode::Char('h'), N, Action::Left, "h"),
    (KeyCode::Right, N, Action::Right, "→"),
    (KeyCode::Char('l'), N, Action::Right, "l"),
    (KeyCode::Tab, N, Action::NextPane, "Tab"),
    (KeyCode::BackTab, N, Action::PrevPane, "Shift-Tab"),
    (KeyCode::Char('1'), N, Action::Focus(Pane::Frames), "1"),
    (KeyCode::Char('2'), N, Action::Focus(Pane::Registers), "2"),
    (KeyCode::Char('3'), N, Action::Focus(Pane::Findings), "3"),
    (KeyCode::Char('4'), N, Action::Focus(Pane::Detail), "4"),
    (KeyCode::Char('5'), N, Action::Focus(Pane::Memory), "5"),
    (KeyCode::Char('6'), N, Action::Focus(Pane::Raw), "6"),
    (KeyCode::Char('7'), N, Action::Focus(Pane::Source), "7"),
    (KeyCode::Enter, N, Action::Open, "Enter"),
    (KeyCode::Esc, N, Action::Back, "Esc"),
    (KeyCode::Char('t'), N, Action::Threads, "t"),
    (KeyCode::Char('s'), N, Action::Stops, "s"),
    (KeyCode::Char('['), N, Action::PrevStop, "["),
    (KeyCode::Char(']'), N, Action::NextStop, "]"),
    (KeyCode::Char('/'), N, Action::SearchStart, "/"),
    (KeyCode::Char('n'), N, Action::SearchNext, "n"),
    (KeyCode::Char('N'), N, Action::SearchPrev, "N"),
    (KeyCode::Char('?'), N, Action::Help, "?"),
    (KeyCode::Char('a'), N, Action::AddNote, "a"),
    (KeyCode::Char('A'), N, Action::AddTraceNote, "A"),
    (KeyCode::Char('m'), N, Action::Notes, "m"),
    (KeyCode::Char('e'), N, Action::Export, "e"),
    (KeyCode::Char('q'), N, Action::Quit, "q"),
    (KeyCode::Char('c'), C, Action::Quit, "Ctrl-c"),
];

/// Shift is part of the character for letters (`G`, `N`, `?`), so it is ignored there.
fn normalize(key: KeyEvent) -> (KeyCode, KeyModifiers) {
    let mut m = key.modifiers - KeyModifiers::SHIFT;
    if let KeyCode::Char(_) = key.code {
        m -= KeyModifiers::ALT;
    }
    if key.code == KeyCode::BackTab {
        m = KeyModifiers::NONE;
    }
    (key.code, m)
}

/// The action for a key press in the current mode.
pub fn action(mode: ModeKind, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let (code, m) = normalize(key);
    match mode {
        ModeKind::Normal => NORMAL.iter().find(|(k, km, _, _)| *k == code && *km == m).map(|(_, _, a, _)| a.clone()),
        ModeKind::Prompt => match (code, m) {
            (KeyCode::Enter, _) => Some(Action::Open),
            (KeyCode::Esc, _) | (KeyCode::Char('c'), C) | (KeyCode::Char('g'), C) => Some(Action::Back),
            (KeyCode::Backspace, _) => Some(Action::Backspace),
            (KeyCode::Delete, _) => Some(Action::Delete),
            (KeyCode::Left, _) => Some(Action::Left),
            (KeyCode::Right, _) => Some(Action::Right),
            (KeyCode::Home, _) | (KeyCode::Char('a'), C) => Some(Action::Top),
            (KeyCode::End, _) | (KeyCode::Char('e'), C) => Some(Action::Bottom),
            (KeyCode::Char(c), m) if !m.contains(C) => Some(Action::Input(c)),
            (KeyCode::Tab, _) => Some(Action::Input(' ')),
            _ => None,
        },
        ModeKind::Export => match (code, m) {
            (KeyCode::Enter, _) | (KeyCode::Char('f'), N) => Some(Action::ExportFile),
            (KeyCode::Char('c'), N) => Some(Action::ExportClipboard),
            (KeyCode::Esc, _) | (KeyCode::Char('q'), N) | (KeyCode::Char('c'), C) => Some(Action::Back),
            _ => None,
        },
        ModeKind::Notes => match (code, m) {
            (KeyCode::Char('d'), N) | (KeyCode::Delete, _) => Some(Action::Delete),
            (KeyCode::Char('e'), N) => Some(Action::Open),
            (KeyCode::Char('c'), C) => Some(Action::Quit),
            (KeyCode::Char('q'), N) | (KeyCode::Esc, _) => Some(Action::Back),
            _ => NORMAL.iter().find(|(k, km, _, _)| *k == code && *km == m).map(|(_, _, a, _)| a.clone()),
        },
        ModeKind::Popup => match (code, m) {
            (KeyCode::Char('c'), C) => Some(Action::Quit),
            (KeyCode::Char('q'), N) | (KeyCode::Esc, _) => Some(Action::Back),
            _ => NORMAL.iter().find(|(k, km, _, _)| *k == code && *km == m).map(|(_, _, a, _)| a.clone()),
        },
    }
}

/// Clicks and the wheel; everything else (moves, drags) is ignored.
pub fn mouse(ev: MouseEvent) -> Option<Action> {
    let (column, row) = (ev.column, ev.row);
    match ev.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click { column, row }),
        MouseEventKind::ScrollDown => Some(Action::Scroll { column, row, down: true }),
        MouseEventKind::ScrollUp => Some(Action::Scroll { column, row, down: false }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_key() {
        let help = super::super::popup::HELP;
        for (_, _, a, label) in NORMAL {
            let found = help.lines().any(|l| {
                let keys = l.trim_start().split("  ").next().unwrap_or("");
                keys.split_whitespace().any(|k| k == *label)
            });
            assert!(found, "help does not list {label} ({a:?})");
        }
    }

    #[test]
    fn keys_are_unique_and_shift_is_ignored_for_letters() {
        for (i, (k, m, _, _)) in NORMAL.iter().enumerate() {
            assert!(!NORMAL[..i].iter().any(|(k2, m2, _, _)| k2 == k && m2 == m), "{k:?} bound twice");
        }
        let g = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(action(ModeKind::Normal, g), Some(Action::Bottom));
        let a = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
        assert_eq!(action(ModeKind::Prompt, a), Some(Action::Input('a')));
    }
}
