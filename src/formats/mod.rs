//! Model file formats, read by byte ranges so that a multi-gigabyte file is never held in memory:
//! natively from a file, in the browser from a `File`/`Blob` slice or an HTTP range.

pub mod archive;
pub mod ggml;
pub mod gguf;
pub mod model_info;
pub mod safetensors;
pub mod source;
