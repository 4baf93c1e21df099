//! Every style the TUI uses, in one place.
//!
//! Colours carry meaning only (severity; what a value points into, with pwndbg's vocabulary:
//! CODE red, HEAP blue, STACK yellow, DATA magenta, NULL and other bad values bold red
//! underlined). Only the eight base ANSI colours are used, never white, black or a background
//! colour, because terminal themes adapt those eight to light and dark backgrounds. Selection
//! and highlights use reverse video and bold, so the screen still reads with `NO_COLOR` set,
//! when [`Theme::plain`] drops every colour and keeps the modifiers.

use crate::classify::RegionKind;
use crate::model::Severity;
use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    pub fn colored() -> Self {
        Theme { color: true }
    }
    pub fn plain() -> Self {
        Theme { color: false }
    }
    /// Colour unless `NO_COLOR` is set to a non-empty value (no-color.org).
    pub fn from_env() -> Self {
        Self::from_no_color(std::env::var_os("NO_COLOR").as_deref())
    }
    /// The theme for a given value of `NO_COLOR`: set and non-empty turns colours off.
    pub fn from_no_color(v: Option<&std::ffi::OsStr>) -> Self {
        Theme { color: v.is_none_or(|v| v.is_empty()) }
    }

    fn fg(&self, c: Color) -> Style {
        if self.color { Style::default().fg(c) } else { Style::default() }
    }

    pub fn text(&self) -> Style {
        Style::default()
    }
    pub fn dim(&self) -> Style {
        Style::default().add_modifier(Modifier::DIM)
    }
    pub fn bold(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
    pub fn title(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
    /// The border of the pane that has the keyboard focus.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            Style::default().add_modifier(Modifier::DIM)
        }
    }
    /// The selected row of the focused pane.
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }
    /// The selected row of a pane without focus.
    pub fn selected_unfocused(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::DIM)
    }
    /// Registers a finding is about; raw lines of the selected item.
    pub fn highlight(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }
    /// A register whose value differs from the next (outer) frame.
    pub fn changed(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }
    pub fn severity(&self, s: Severity) -> Style {
        match s {
            Severity::Error => self.fg(Color::Red).add_modifier(Modifier::BOLD),
            Severity::Warning => self.fg(Color::Yellow).add_modifier(Modifier::BOLD),
            Severity::Info => self.fg(Color::Cyan),
        }
    }
    /// The crashing frame (#0 of the crashed thread).
    pub fn crash(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    /// The culprit frame (first frame outside runtime/libc).
    pub fn culprit(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
    pub fn signal_frame(&self) -> Style {
        self.fg(Color::Magenta).add_modifier(Modifier::ITALIC)
    }
    pub fn inlined(&self) -> Style {
        Style::default().add_modifier(Modifier::ITALIC | Modifier::DIM)
    }
    pub fn note(&self) -> Style {
        self.fg(Color::Green)
    }
    pub fn line_number(&self) -> Style {
        Style::default().add_modifier(Modifier::DIM)
    }
    pub fn search_match(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }
    pub fn status_error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// What a value points into.
    pub fn region(&self, k: RegionKind) -> Style {
        match k {
            RegionKind::Code | RegionKind::Jit => self.fg(Color::Red),
            RegionKind::Heap | RegionKind::Anonymous => self.fg(Color::Blue),
            RegionKind::Stack => self.fg(Color::Yellow),
            RegionKind::WritableData => self.fg(Color::Magenta),
            RegionKind::ReadOnlyData | RegionKind::Special => Style::default(),
            RegionKind::ZeroPage | RegionKind::NonCanonical | RegionKind::Unmapped | RegionKind::Kernel => {
                self.fg(Color::Red).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            }
            RegionKind::SmallInteger | RegionKind::Unknown => Style::default().add_modifier(Modifier::DIM),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_has_no_colours_but_keeps_meaningful_modifiers() {
        let p = Theme::plain();
        for s in
            [p.highlight(), p.severity(Severity::Error), p.region(RegionKind::ZeroPage), p.border(true), p.changed()]
        {
            assert_eq!(s.fg, None);
            assert_eq!(s.bg, None);
        }
        assert!(p.selected().add_modifier.contains(Modifier::REVERSED));
        assert!(p.highlight().add_modifier.contains(Modifier::BOLD));
    }

    #[test]
    fn no_color_env_semantics() {
        use std::ffi::OsStr;
        assert!(Theme::from_no_color(None).color);
        assert!(Theme::from_no_color(Some(OsStr::new(""))).color);
        assert!(!Theme::from_no_color(Some(OsStr::new("1"))).color);
    }

    #[test]
    fn colours_avoid_white_black_and_backgrounds() {
        let c = Theme::colored();
        let kinds =
            [RegionKind::Code, RegionKind::Heap, RegionKind::Stack, RegionKind::WritableData, RegionKind::ZeroPage];
        for s in kinds.iter().map(|k| c.region(*k)).chain([c.highlight(), c.severity(Severity::Warning), c.changed()]) {
            assert!(!matches!(s.fg, Some(Color::White | Color::Black | Color::Gray | Color::DarkGray)));
            assert_eq!(s.bg, None);
        }
    }
}
