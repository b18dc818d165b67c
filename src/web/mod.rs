//! The browser front end. Two wasm entry points share this module:
//! - `page` runs on the UI thread: it owns the DOM and never computes.
//! - `worker` runs in a dedicated Web Worker: it owns the device and the model.
//!
//! They talk only through the typed messages in `protocol`, which compile on every target so that
//! the CLI and the native tests can check them too.

pub mod classroom;
pub mod driver;
pub mod dropped;
pub mod i18n;
pub mod protocol;
pub mod run;
pub mod segments;
pub mod suite;
pub mod summary;

#[cfg(target_arch = "wasm32")]
mod checkpoint;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
mod download;

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
mod webgpu;
// A run's course is the driver's: an event whose effects the page drops does not compile.
#[cfg(target_arch = "wasm32")]
#[deny(unused_must_use)]
pub mod page;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod worker;
