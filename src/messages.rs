//! Messages a program, its allocator or its runtime print just before they abort.
//!
//! The parser keeps these lines on the stop (`Stop::messages`); the abort rules quote them.

/// Whether a line is one of the well-known fatal messages.
pub fn is_abort_message(t: &str) -> bool {
    let t = t.trim();
    classify(t).is_some() || t.starts_with("what():") || t.starts_with("note: run with `RUST_BACKTRACE")
}

/// What kind of fatal message a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// glibc malloc consistency checks.
    HeapCorruption,
    /// `*** stack smashing detected ***`
    StackSmashing,
    /// C++ `terminate called after throwing an instance of '…'`
    UncaughtException,
    /// Rust `thread '…' panicked at …`
    Panic,
    /// `Assertion `…' failed.` (glibc, Julia, LLVM)
    Assertion,
    /// Julia `GC error (probable corruption)`
    GcCorruption,
    /// `LLVM ERROR:`, `fatal runtime error:`, `fatal error:` (Go)
    FatalError,
}

const HEAP: &[&str] = &[
    "double free detected",
    "double free or corruption",
    "corrupted size vs. prev_size",
    "corrupted double-linked list",
    "malloc(): corrupted",
    "malloc(): unaligned",
    "malloc(): invalid",
    "malloc(): memory corruption",
    "malloc(): mismatching next->prev_size",
    "malloc_consolidate(): ",
    "free(): invalid",
    "free(): corrupted",
    "free(): unaligned",
    "free(): too many chunks",
    "munmap_chunk(): invalid pointer",
    "realloc(): invalid",
    "realloc(): corrupted",
    "corrupted top size",
    "malloc(): smallbin double linked list corrupted",
    "malloc(): largebin double linked list corrupted",
    "tcache_thread_shutdown(): unaligned",
    "*** Error in `",
];

pub fn classify(t: &str) -> Option<MessageKind> {
    if t.contains("stack smashing detected") {
        return Some(MessageKind::StackSmashing);
    }
    if HEAP.iter().any(|h| t.contains(h)) {
        return Some(MessageKind::HeapCorruption);
    }
    if t.starts_with("terminate called after throwing an instance of") || t.starts_with("terminate called without an active exception") || t.starts_with("terminate called recursively") {
        return Some(MessageKind::UncaughtException);
    }
    // `thread 'main' panicked at …`; Rust 1.89+ adds the tid: `thread 'main' (26319) panicked at …`.
    if t.starts_with("thread '") && t.contains(" panicked at ") {
        return Some(MessageKind::Panic);
    }
    if t.contains("Assertion `") && t.ends_with("failed.") || t.contains("Assertion failed:") {
        return Some(MessageKind::Assertion);
    }
    if t.starts_with("GC error (probable corruption)") {
        return Some(MessageKind::GcCorruption);
    }
    if t.starts_with("LLVM ERROR:") || t.starts_with("fatal runtime error:") || t.starts_with("fatal error: ") {
        return Some(MessageKind::FatalError);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn kinds() {
        assert_eq!(classify("free(): double free detected in tcache 2"), Some(MessageKind::HeapCorruption));
        assert_eq!(classify("*** stack smashing detected ***: terminated"), Some(MessageKind::StackSmashing));
        assert_eq!(classify("terminate called after throwing an instance of 'std::out_of_range'"), Some(MessageKind::UncaughtException));
        assert_eq!(classify("thread 'main' panicked at src/main.rs:13:5:"), Some(MessageKind::Panic));
        assert_eq!(classify("thread 'main' (26319) panicked at src/rust-panic.rs:23:28:"), Some(MessageKind::Panic));
        assert_eq!(classify("t: t.c:5: main: Assertion `x == 1' failed."), Some(MessageKind::Assertion));
        assert_eq!(classify("GC error (probable corruption)"), Some(MessageKind::GcCorruption));
        assert_eq!(classify("hello world"), None);
        assert!(is_abort_message("  what():  vector::_M_range_check: __n (which is 10) >= this->size() (which is 3)"));
    }
}
