//! One failure stays one failure: a panic in a run or an evaluation becomes that task's error
//! instead of taking down the others.

/// The message of a caught panic.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// `f()`, with a panic turned into an error: one run or manifest that panics must not take down
/// the others.
pub(crate) fn isolated<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|p| Err(format!("{what} panicked: {}", panic_message(p))))
}

#[cfg(test)]
mod tests {
    use super::isolated;

    #[test]
    fn a_panic_becomes_an_error() {
        let r: Result<(), String> = isolated("the run", || panic!("index out of bounds"));
        assert_eq!(r.unwrap_err(), "the run panicked: index out of bounds");
        let r: Result<(), String> = isolated("the run", || panic!("{}", String::from("owned")));
        assert_eq!(r.unwrap_err(), "the run panicked: owned");
        assert_eq!(isolated("the run", || Ok(3)), Ok(3));
    }
}
