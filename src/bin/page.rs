//! Browser entry point for the page (UI thread). trunk builds it for wasm32; see `lingualens::web::page`.

#[cfg(target_arch = "wasm32")]
fn main() {
    lingualens::web::page::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("lingualens-page is the browser front end: serve it with `scripts/serve.sh` (see README.md)");
    std::process::exit(2);
}
