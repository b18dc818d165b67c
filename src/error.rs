//! The crate's error: a message written for the person who supplied the input, naming the file,
//! row, field or tensor at fault. Nothing in the engine panics on bad input; it returns one of these.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error { message: message.into() }
    }

    /// The same error with `context` in front: "model.gguf: tensor blk.0.attn_q.weight: …".
    pub fn context(self, context: impl fmt::Display) -> Self {
        Error { message: format!("{context}: {}", self.message) }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error { message }
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Self {
        Error::new(message)
    }
}

/// `bail!("…{x}…")` returns an [`Error`] from the current function.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => { return Err($crate::error::Error::new(format!($($arg)*))) };
}
