//! The Detail pane: everything about the selected item. For a finding: severity, message,
//! where, its registers, the user's notes, the rule's explanation (`rules::find(id)`), the
//! evidence with its dump lines and the commands that would confirm it. For a frame: its
//! location, arguments and locals; for a register: its value, class and the words behind it.

use super::app::{App, Pane};
use super::common::{block, clean, inner};
use super::registers;
use crate::model::Span as LineSpan;
use crate::notes::Note;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

fn lines_label(s: LineSpan) -> String {
    if s.first == s.last { format!("line {}", s.first) } else { format!("lines {}-{}", s.first, s.last) }
}

fn notes_lines<'a>(app: &App, title: &str, notes: impl Iterator<Item = &'a Note>, out: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let mut any = false;
    for n in notes {
        if !any {
            out.push(Line::default());
            out.push(Line::styled(title.to_string(), t.title()));
            any = true;
        }
        out.push(Line::from(vec![Span::styled("✎ ", t.note()), Span::styled(clean(n.text.trim()), t.note())]));
    }
}

pub fn content(app: &App) -> (String, Vec<Line<'static>>) {
    let t = &app.theme;
    let mut out: Vec<Line<'static>> = Vec::new();
    let title;
    match app.item_pane {
        Pane::Findings if app.current_finding().is_some() => {
            let Some(f) = app.current_finding() else { return (String::new(), out) };
            title = format!(" Finding {}/{} ", app.finding + 1, app.ir.findings.len());
            out.push(Line::from(vec![
                Span::styled(format!("{} ", f.severity.name().to_uppercase()), t.severity(f.severity)),
                Span::styled(f.rule.to_string(), t.bold()),
                Span::raw(format!(": {}", clean(&f.title))),
            ]));
            out.push(Line::raw(clean(&f.message)));
            let mut at = Vec::new();
            if !f.registers.is_empty() {
                at.push(Span::raw("registers "));
                at.push(Span::styled(clean(&f.registers.join(" ")), t.highlight()));
                at.push(Span::styled(" · ", t.dim()));
            }
            if let Some(th) = &f.thread {
                at.push(Span::styled(format!("thread {} · ", clean(th)), t.dim()));
            }
            if let Some(fr) = f.frame {
                let name = app
                    .current_frame()
                    .filter(|x| x.index == fr)
                    .map(|x| format!(" {}", clean(x.function_name())))
                    .unwrap_or_default();
                at.push(Span::styled(format!("frame #{fr}{name}"), t.dim()));
            }
            if f.heuristic {
                at.push(Span::styled(" · heuristic", t.dim()));
            }
            out.push(Line::from(at));
            notes_lines(app, "Notes", app.finding_notes(app.finding), &mut out);
            if let Some(rule) = crate::rules::find(f.rule) {
                // Rendered: bold runs bold, code runs in the title colour, list items bulleted.
                use crate::report::explain::{self, Kind};
                for (k, b) in explain::blocks(rule.info.explanation).into_iter().enumerate() {
                    let mut spans: Vec<Span<'static>> = Vec::new();
                    if k == 0 {
                        spans.push(Span::styled("Explanation: ", t.title()));
                    }
                    if b.bullet {
                        spans.push(Span::raw("  • "));
                    }
                    for (text, kind) in b.runs {
                        spans.push(match kind {
                            Kind::Plain => Span::raw(text),
                            Kind::Bold => Span::styled(text, t.bold()),
                            Kind::Code => Span::styled(text, t.title()),
                        });
                    }
                    out.push(Line::from(spans));
                }
            }
            if !f.evidence.is_empty() {
                out.push(Line::default());
                out.push(Line::styled("Evidence", t.title()));
                for e in &f.evidence {
                    let mut l = vec![Span::raw("• "), Span::raw(clean(&e.text))];
                    if let Some(s) = e.lines {
                        l.push(Span::styled(format!("  ({})", lines_label(s)), t.line_number()));
                    }
                    out.push(Line::from(l));
                }
            }
            if !f.next_steps.is_empty() {
                out.push(Line::default());
                out.push(Line::styled("To confirm", t.title()));
                for s in &f.next_steps {
                    out.push(Line::from(vec![Span::raw("$ "), Span::styled(clean(s), t.key())]));
                }
            }
        }
        Pane::Registers if app.current_register().is_some() => {
            let Some(r) = app.current_register() else { return (String::new(), out) };
            let fi = app.current_frame().map(|f| f.index).unwrap_or(0);
            title = format!(" Register {} · frame #{fi} ", clean(&r.name));
            let c = app.classifier();
            match r.value {
                Some(v) => out.push(Line::from(vec![
                    Span::styled(clean(&r.name), t.bold()),
                    Span::raw(format!(" = {v:#x} ({v})")),
                ])),
                None => {
                    out.push(Line::raw(format!("{} = {}", clean(&r.name), clean(r.natural.as_deref().unwrap_or("?")))))
                }
            }
            if let Some(n) = &r.natural {
                out.push(Line::styled(format!("gdb printed: {}", clean(n)), t.dim()));
            }
            let ann = registers::annotation(app, r, &c);
            if !ann.is_empty() {
                let mut l = vec![Span::raw("points to: ")];
                l.extend(ann);
                out.push(Line::from(l));
            }
            if let (Some(o), Some(v)) = (app.outer_registers().and_then(|o| o.get(&r.name)), r.value)
                && o != v
            {
                out.push(Line::styled(format!("changed: the next outer frame with registers has {o:#x}"), t.changed()));
            }
            if r.span.first > 0 {
                out.push(Line::styled(format!("printed at dump {}", lines_label(r.span)), t.line_number()));
            }
            notes_lines(app, "Notes", app.register_notes(&r.name), &mut out);
        }
        _ => {
            let Some(f) = app.current_frame() else {
                return (" Detail ".into(), vec![Line::styled("nothing selected", t.dim())]);
            };
            title = format!(" Frame #{} ", f.index);
            out.push(Line::raw(clean(&crate::report::frame_line(f))));
            if app.is_crash_frame(app.frame) {
                out.push(Line::styled("the program crashed here", t.crash()));
            }
            if app.is_culprit(app.frame) {
                out.push(Line::styled("culprit: the first frame outside runtime and libc", t.culprit()));
            }
            if let Some(m) = &f.module {
                out.push(Line::styled(format!("module {}", clean(m)), t.dim()));
            }
            let locals: Vec<(&str, &str)> = f.locals().collect();
            if !locals.is_empty() {
                out.push(Line::default());
                out.push(Line::styled("Locals", t.title()));
                for (n, v) in locals {
                    out.push(Line::raw(format!("{} = {}", clean(n), clean(v))));
                }
            }
            if f.span.first > 0 {
                out.push(Line::styled(format!("printed at dump {}", lines_label(f.span)), t.line_number()));
            }
            notes_lines(app, "Notes", app.frame_notes(app.frame), &mut out);
        }
    }
    notes_lines(app, "Notes on the whole trace", app.trace_notes(), &mut out);
    notes_lines(app, "Notes that no longer match this dump", app.orphan_notes(), &mut out);
    (title, out)
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let (title, lines) = content(app);
    let focused = app.focus == Pane::Detail;
    block(title, focused, &app.theme).render(area, buf);
    Paragraph::new(lines).wrap(Wrap { trim: false }).scroll((app.detail_scroll, 0)).render(inner(area), buf);
}
