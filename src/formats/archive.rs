//! Zip archives, as benchmarks publish them (DZEN's release is one zip of CSVs): every file with
//! its path in the archive, read from bytes so that the CLI and the browser worker unpack the same
//! way. zip-rs checks each entry's CRC and name; this adds the bounds a hostile archive needs.

use std::io::Read;

use crate::{bail, Error, Result};

/// The most one unpacked entry may hold: far above any benchmark file, far below memory.
pub const MAX_ENTRY_BYTES: u64 = 256 << 20;
/// The most files an archive may hold.
pub const MAX_ENTRIES: usize = 100_000;

/// Every file of the archive `bytes` (named `label` in messages) with its path in it; folders are
/// implied. A name that would leave the folder (`../x`, an absolute path), an entry larger than
/// [`MAX_ENTRY_BYTES`] or a damaged one (its CRC) is an error naming it. macOS resource forks
/// (`__MACOSX/`) are not data and are left out.
pub fn unzip(label: &str, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| Error::new(format!("{label}: not a zip archive: {e}")))?;
    if archive.len() > MAX_ENTRIES {
        bail!("{label}: {} entries, more than an archive of benchmark files may hold ({MAX_ENTRIES})", archive.len());
    }
    let mut out = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| Error::new(format!("{label}: entry {i}: {e}")))?;
        if entry.is_dir() {
            continue;
        }
        let name = entry.name().to_string();
        let Some(safe) = entry.enclosed_name() else { bail!("{label}: {name:?} is not a path inside the archive") };
        let safe = safe.to_string_lossy().replace('\\', "/");
        if safe.starts_with("__MACOSX/") {
            continue;
        }
        // The declared size bounds the allocation; a lie is caught by the CRC check at the end.
        if entry.size() > MAX_ENTRY_BYTES {
            bail!("{label}: {name}: {} bytes, more than a benchmark file may hold ({MAX_ENTRY_BYTES})", entry.size());
        }
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        entry
            .by_ref()
            .take(MAX_ENTRY_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::new(format!("{label}: {name}: {e}")))?;
        out.push((safe, bytes));
    }
    if out.is_empty() {
        bail!("{label}: the archive holds no files");
    }
    Ok(out)
}

/// A downloaded catalogue file as the files it stands for (`datasets/catalog.json`'s `unpack`):
/// an archive's (`zip`) by their paths in it, else the file itself under `name`.
pub fn unpacked(unpack: Option<&str>, name: &str, bytes: Vec<u8>) -> Result<Vec<(String, Vec<u8>)>> {
    match unpack {
        Some("zip") => unzip(name, &bytes),
        None => Ok(vec![(name.to_string(), bytes)]),
        Some(other) => bail!("{name}: unpack {other:?} is not known (zip)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut writer = zip::ZipWriter::new(&mut out);
        for (name, bytes) in entries {
            writer.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            std::io::Write::write_all(&mut writer, bytes).unwrap();
        }
        writer.finish().unwrap();
        out.into_inner()
    }

    #[test]
    fn files_come_out_by_their_paths_and_a_path_outside_or_a_damaged_entry_is_refused() {
        let good = archive(&[
            ("DZEN/a.csv", b"q,a\n1,2\n"),
            ("__MACOSX/DZEN/._a.csv", b"fork"),
            ("DZEN-Few_Shots/b.csv", b"x"),
        ]);
        let files = unzip("r.zip", &good).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["DZEN/a.csv", "DZEN-Few_Shots/b.csv"]);
        assert_eq!(files[0].1, b"q,a\n1,2\n");

        let escaping = archive(&[("../evil.csv", b"x")]);
        assert!(unzip("e.zip", &escaping).unwrap_err().to_string().contains("not a path inside the archive"));

        // One byte of the stored data flipped: the CRC check names the entry.
        let mut damaged = archive(&[("DZEN/a.csv", b"stored bytes that will be damaged")]);
        let at = damaged.windows(6).position(|w| w == b"stored").unwrap();
        damaged[at] ^= 1;
        let err = unzip("d.zip", &damaged).unwrap_err().to_string();
        assert!(err.starts_with("d.zip: DZEN/a.csv"), "{err}");

        assert!(unzip("n.zip", b"not a zip").unwrap_err().to_string().contains("not a zip archive"));
    }
}
