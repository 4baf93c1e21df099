//! The Memory & disassembly pane: the instructions around the selected frame's pc (from
//! `disassemble` and `x/i`, pc marked `=>`), then every `x/` dump of the stop with each word
//! coloured by what it points into and `← reg` where a register of the frame points at it.

use super::app::{App, Pane};
use super::common::{block, clean, fit, inner, scroll_row, side_marker};
use crate::classify::{Classifier, RegionKind};
use crate::model::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Widget;

/// Instructions shown before and after pc.
const BEFORE: usize = 6;
const AFTER: usize = 10;

/// One row of the pane, built only when visible.
#[derive(Clone, Copy, Debug)]
enum Row {
    Heading(&'static str),
    Text(usize),
    Insn(usize),
    Words { dump: usize, first: usize },
    Str(usize),
    DumpHeader(usize),
    Blank,
}

/// The selected frame's pc: its printed pc, or the pc register for frames without one.
fn frame_pc(app: &App) -> Option<u64> {
    let f = app.current_frame()?;
    f.pc.map(|a| a.0).or_else(|| app.frame_registers().and_then(|r| r.get(app.trace().arch.pc_register())))
}

/// Instructions of the stop, de-duplicated and sorted by address.
fn instructions(stop: &Stop) -> Vec<&Instruction> {
    let mut v: Vec<&Instruction> = stop.disassembly.iter().collect();
    v.sort_by_key(|i| i.address);
    v.dedup_by_key(|i| i.address);
    v
}

fn rows(app: &App, insns: &[&Instruction]) -> (Vec<Row>, Option<u64>) {
    let mut rows = Vec::new();
    let Some(stop) = app.current_stop() else { return (rows, None) };
    rows.push(Row::Heading("disassembly"));
    let pc = frame_pc(app);
    let at = pc.and_then(|pc| insns.iter().position(|i| i.address.0 == pc));
    match at {
        Some(i) => {
            for k in i.saturating_sub(BEFORE)..(i + AFTER + 1).min(insns.len()) {
                rows.push(Row::Insn(k));
            }
        }
        None => rows.push(Row::Text(if insns.is_empty() { 0 } else { 1 })),
    }
    rows.push(Row::Blank);
    rows.push(Row::Heading("memory"));
    if stop.memory.is_empty() {
        rows.push(Row::Text(2));
    }
    for (d, m) in stop.memory.iter().enumerate() {
        rows.push(Row::DumpHeader(d));
        if m.string.is_some() {
            rows.push(Row::Str(d));
        } else {
            let per_row = if m.unit == 0 { 1 } else { (16 / m.unit as usize).max(1) };
            let mut first = 0;
            while first < m.words.len() {
                rows.push(Row::Words { dump: d, first });
                first += per_row;
            }
        }
    }
    (rows, pc)
}

/// How many rows the pane has now (for scrolling).
pub fn line_count(app: &App) -> usize {
    let Some(stop) = app.current_stop() else { return 0 };
    let insns = instructions(stop);
    rows(app, &insns).0.len()
}

fn word_style(app: &App, c: &Classifier<'_>, w: u64) -> ratatui::style::Style {
    if w == 0 {
        return app.theme.dim();
    }
    if w < 0x10000 {
        return app.theme.region(RegionKind::SmallInteger);
    }
    app.theme.region(c.classify(w).kind)
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Memory;
    let t = &app.theme;
    block(" Memory & disassembly ", focused, t).render(area, buf);
    let inner = inner(area);
    let Some(stop) = app.current_stop() else { return };
    let insns = instructions(stop);
    let (rows, pc) = rows(app, &insns);
    let c = app.classifier();
    let regs: Vec<(&str, u64)> = app
        .frame_registers()
        .map(|s| s.regs.iter().filter_map(|r| Some((&*r.name, r.value?))).collect())
        .unwrap_or_default();
    let h = inner.height as usize;
    let w = inner.width as usize;
    let top = app.memory_scroll.min(rows.len().saturating_sub(1));
    let skip = app.hscroll[Pane::Memory.index()];
    let mut overflow = 0;
    for (y, row) in rows.iter().skip(top).take(h).enumerate() {
        // An instruction's marker and address, a dump row's address stay when scrolled.
        let frozen = match *row {
            Row::Insn(_) => 2,
            Row::Words { .. } | Row::Str(_) => 1,
            _ => 0,
        };
        let spans: Vec<Span<'static>> = match *row {
            Row::Heading(s) => vec![Span::styled(s.to_string(), t.title())],
            Row::Blank => vec![],
            Row::Text(k) => {
                let msg = match k {
                    0 => "no disassembly in the dump (gdb: x/16i $pc, disassemble)".to_string(),
                    1 => format!(
                        "pc {} is not in any disassembly of this stop",
                        pc.map(|p| format!("{p:#x}")).unwrap_or("?".into())
                    ),
                    _ => "no x/ memory dumps in this stop".to_string(),
                };
                vec![Span::styled(msg, t.dim())]
            }
            Row::Insn(k) => {
                let i = insns[k];
                let here = Some(i.address.0) == pc;
                let mut v = vec![
                    Span::styled(if here { "=> " } else { "   " }, if here { t.crash() } else { t.text() }),
                    Span::styled(format!("{:#x}", i.address.0), t.region(RegionKind::Code)),
                ];
                if let Some(l) = &i.location {
                    v.push(Span::styled(format!(" <{}>", clean(l)), t.dim()));
                }
                v.push(Span::styled(format!("  {}", clean(&i.text)), if here { t.bold() } else { t.text() }));
                v
            }
            Row::DumpHeader(d) => {
                let m = &stop.memory[d];
                let expr = m.expr.as_deref().map(|e| format!("x {}", clean(e))).unwrap_or_else(|| "x".into());
                vec![Span::styled(format!("{expr} @ {:#x}", m.address.0), t.bold())]
            }
            Row::Str(d) => {
                let m = &stop.memory[d];
                vec![
                    Span::styled(format!("{:#x}: ", m.address.0), t.dim()),
                    Span::raw(clean(m.string.as_deref().unwrap_or(""))),
                ]
            }
            Row::Words { dump, first } => {
                let m = &stop.memory[dump];
                let unit = m.unit.max(1) as u64;
                let per_row = (16 / unit as usize).max(1);
                let addr = m.address.0.wrapping_add(first as u64 * unit);
                let mut v = vec![Span::styled(format!("{addr:#x}: "), t.dim())];
                for (k, word) in m.words.iter().enumerate().skip(first).take(per_row) {
                    let width = unit as usize * 2;
                    v.push(Span::styled(format!("0x{word:0width$x} "), word_style(app, &c, *word)));
                    let _ = k;
                }
                let backrefs: Vec<&str> = regs
                    .iter()
                    .filter(|(_, rv)| *rv >= addr && *rv < addr + per_row as u64 * unit)
                    .map(|(n, _)| *n)
                    .collect();
                if !backrefs.is_empty() {
                    v.push(Span::styled(format!("← {}", clean(&backrefs.join(" "))), t.highlight()));
                }
                v
            }
        };
        let (spans, over) = scroll_row(spans, frozen, skip, w);
        overflow = overflow.max(over);
        fit(spans, w).render(Rect::new(inner.x, inner.y + y as u16, inner.width, 1), buf);
    }
    side_marker(area, buf, &app.hscroll_max, Pane::Memory.index(), skip, overflow, t);
}
