//! The run checkpoint in IndexedDB: one record per answered item under `<run key>/<index>`, written
//! as soon as the row exists. After a reload or a crash the page reads the run's records back and
//! asks only for the items that have none, so no answered item is lost or scored twice.
//!
//! IndexedDB's API is callbacks on request objects; `request` turns one request into a future.

use js_sys::{Array, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbKeyRange, IdbObjectStore, IdbRequest, IdbTransaction, IdbTransactionMode};

use super::protocol::ItemRow;

const DATABASE: &str = "lingualens";
const ROWS: &str = "rows";

pub struct Checkpoint {
    db: IdbDatabase,
}

/// Waits for a request's `success` (its result) or `error`.
async fn request(req: &IdbRequest) -> Result<JsValue, String> {
    let promise = Promise::new(&mut |resolve, reject| {
        let done = req.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &done.result().unwrap_or(JsValue::UNDEFINED));
        });
        let failed = req.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let why = failed.error().ok().flatten().map(|e| e.message()).unwrap_or_else(|| "unknown error".into());
            let _ = reject.call1(&JsValue::NULL, &why.into());
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise)
        .await
        .map_err(|e| format!("IndexedDB: {}", e.as_string().unwrap_or_else(|| format!("{e:?}"))))
}

/// Waits for a transaction to commit (`complete`); `Err` when it fails or is aborted (a full disk,
/// a quota): a request's `success` alone does not mean the data is stored.
async fn committed(tx: &IdbTransaction) -> Result<(), String> {
    let promise = Promise::new(&mut |resolve, reject| {
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let failed = tx.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let why = failed.error().map(|e| e.message()).unwrap_or_else(|| "the transaction was aborted".into());
            let _ = reject.call1(&JsValue::NULL, &why.into());
        });
        tx.set_oncomplete(Some(ok.unchecked_ref()));
        // One of the two fires, so one closure each: `error` and `abort` share the rejection.
        tx.set_onerror(Some(err.unchecked_ref()));
        tx.set_onabort(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| format!("IndexedDB: {}", e.as_string().unwrap_or_else(|| format!("{e:?}"))))
}

fn key(run: &str, index: usize) -> String {
    format!("{run}/{index:08}")
}

fn range(run: &str) -> Result<IdbKeyRange, String> {
    IdbKeyRange::bound(&format!("{run}/").into(), &format!("{run}/\u{ffff}").into())
        .map_err(|_| "IndexedDB: bad key range".to_string())
}

impl Checkpoint {
    /// Opens (creating on first use) the database; `Err` where the browser has no IndexedDB
    /// (the run still works, without a checkpoint).
    pub async fn open() -> Result<Checkpoint, String> {
        let factory = gloo::utils::window()
            .indexed_db()
            .ok()
            .flatten()
            .ok_or("this browser offers no IndexedDB (private mode?): runs are not checkpointed")?;
        let open = factory.open_with_u32(DATABASE, 1).map_err(|_| "IndexedDB: cannot open the database")?;
        let upgrading = open.clone();
        let upgrade = Closure::once_into_js(move |_: web_sys::Event| {
            if let Ok(db) = upgrading.result().and_then(|r| r.dyn_into::<IdbDatabase>()) {
                if !db.object_store_names().contains(ROWS) {
                    let _ = db.create_object_store(ROWS);
                }
            }
        });
        open.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
        let db = request(&open).await?.dyn_into::<IdbDatabase>().map_err(|_| "IndexedDB: no database")?;
        Ok(Checkpoint { db })
    }

    fn store(&self, mode: IdbTransactionMode) -> Result<IdbObjectStore, String> {
        self.db
            .transaction_with_str_and_mode(ROWS, mode)
            .and_then(|t| t.object_store(ROWS))
            .map_err(|_| "IndexedDB: cannot open a transaction".to_string())
    }

    /// Stores a row; `Ok` once its transaction has committed, not before.
    pub async fn put(&self, run: &str, row: &ItemRow) -> Result<(), String> {
        let value = serde_json::to_string(row).map_err(|e| e.to_string())?;
        let tx = self
            .db
            .transaction_with_str_and_mode(ROWS, IdbTransactionMode::Readwrite)
            .map_err(|_| "IndexedDB: cannot open a transaction".to_string())?;
        tx.object_store(ROWS)
            .and_then(|store| store.put_with_key(&value.into(), &key(run, row.index).into()))
            .map_err(|_| "IndexedDB: cannot store a row")?;
        // The handlers are installed before this task yields, so the commit cannot be missed.
        committed(&tx).await
    }

    /// The run's rows, in index order; a record that no longer parses is skipped (its item is
    /// scored again).
    pub async fn rows(&self, run: &str) -> Result<Vec<ItemRow>, String> {
        let req = self
            .store(IdbTransactionMode::Readonly)?
            .get_all_with_key(&range(run)?.into())
            .map_err(|_| "IndexedDB: cannot read rows")?;
        let values: Array = request(&req).await?.dyn_into().map_err(|_| "IndexedDB: rows are not a list")?;
        Ok(values.iter().filter_map(|v| v.as_string()).filter_map(|s| serde_json::from_str(&s).ok()).collect())
    }

    pub async fn clear(&self, run: &str) -> Result<(), String> {
        let req = self
            .store(IdbTransactionMode::Readwrite)?
            .delete(&range(run)?.into())
            .map_err(|_| "IndexedDB: cannot delete rows")?;
        request(&req).await.map(|_| ())
    }
}
