//! `lingualens suite NAME --model PATH… --out DIR`: an experiment (`tasks::experiment`) run whole.
//! Every run is an ordinary `lingualens eval` into `DIR/<run>/` (or `DIR/<model>/<run>/` for
//! several models): the same lm-eval files, resumable, so a suite stopped half way goes on where it
//! stopped. Then the experiment's table, from the runs' samples files: each run's accuracy with its
//! 95 % interval, each comparison's paired difference and exact McNemar test, each swing with its
//! bootstrap interval (`scoring::paired`), as `DIR/suite_<NAME>.md`, `.json` and `.svg`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::compare::verdicts;
use super::eval_command::{self, EvalArgs};
use crate::eval::RunOptions;
use crate::tasks::experiment::{Experiment, ExperimentResults, SWING_REPLICATES};
use crate::{bail, Error, Result};

pub struct SuiteArgs {
    /// A built-in experiment's name (`datasets/experiments/NAME.yaml`) or a file.
    pub experiment: String,
    pub models: Vec<PathBuf>,
    /// Data for every run (the same benchmark's files), as `eval --data`.
    pub data: Vec<PathBuf>,
    /// The same seeded sample of documents for every run.
    pub sample: Option<crate::eval::Sample>,
    pub limit: Option<usize>,
    pub out: PathBuf,
    pub offline: bool,
}

/// The folder of built-in experiments: `$LINGUALENS_EXPERIMENTS`, else `datasets/experiments`.
fn builtin_dir() -> PathBuf {
    match std::env::var_os("LINGUALENS_EXPERIMENTS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/experiments"),
    }
}

/// A built-in experiment by name, or an experiment file.
pub(super) fn load(name: &str) -> Result<Experiment> {
    let path = if Path::new(name).is_file() { PathBuf::from(name) } else { builtin_dir().join(format!("{name}.yaml")) };
    if !path.is_file() {
        let mut known: Vec<String> = std::fs::read_dir(builtin_dir())
            .map(|d| {
                d.flatten().filter_map(|e| e.file_name().to_str()?.strip_suffix(".yaml").map(String::from)).collect()
            })
            .unwrap_or_default();
        known.sort();
        bail!("no experiment `{name}`: give a file, or one of {}", known.join(", "));
    }
    let text =
        crate::formats::source::read_text_capped(&path, crate::formats::source::limits::TEXT_FILE, "experiment")?;
    Experiment::parse(&path.display().to_string(), &text)
}

/// One model's results over the experiment's runs.
struct ModelResults {
    model: String,
    results: ExperimentResults,
}

pub fn run(args: &SuiteArgs, device: &crate::backend::ComputeDevice) -> Result<()> {
    let experiment = load(&args.experiment)?;
    if args.models.is_empty() {
        bail!("suite: give at least one --model");
    }
    let mut stems: Vec<String> = args.models.iter().map(|m| model_name(m)).collect();
    stems.sort();
    stems.dedup();
    if stems.len() < args.models.len() {
        bail!("suite: two --model files have the same name; their runs would share a folder");
    }
    let mut results = Vec::new();
    for model in &args.models {
        let dir = if args.models.len() == 1 { args.out.clone() } else { args.out.join(model_name(model)) };
        for (i, spec) in experiment.runs.iter().enumerate() {
            println!(
                "== {} · {} · run {} of {}: {} ({})",
                experiment.experiment,
                model_name(model),
                i + 1,
                experiment.runs.len(),
                spec.name,
                spec.describe()
            );
            let order = spec.order.as_deref().unwrap_or("given");
            let options = RunOptions {
                sample: args.sample,
                limit: args.limit,
                shots: spec.shots,
                seed: spec.seed.unwrap_or(1234),
                order: order.parse().map_err(|e: Error| e.context(format!("run `{}`", spec.name)))?,
            };
            let eval = EvalArgs {
                model: model.clone(),
                task: spec.task.clone(),
                data: args.data.clone(),
                fewshot_data: Vec::new(),
                gen_kwargs: Vec::new(),
                overrides: Vec::new(),
                override_file: None,
                options,
                by: Vec::new(),
                out: dir.join(&spec.name),
                offline: args.offline,
            };
            eval_command::run(&eval, device).map_err(|e| e.context(format!("run `{}`", spec.name)))?;
        }
        results.push(model_results(&experiment, model, &dir)?);
    }
    std::fs::create_dir_all(&args.out).map_err(|e| Error::new(format!("{}: {e}", args.out.display())))?;
    let base = args.out.join(format!("suite_{}", experiment.experiment));
    let write = |ext: &str, text: String| -> Result<()> {
        let path = base.with_extension(ext);
        std::fs::write(&path, text).map_err(|e| Error::new(format!("{}: {e}", path.display())))
    };
    let markdown = markdown(&experiment, &results, args.sample);
    let models: Vec<(&str, &ExperimentResults)> = results.iter().map(|m| (m.model.as_str(), &m.results)).collect();
    let sample = args.sample.map(|s| json!({"size": s.size, "seed": s.seed}));
    let table = crate::web::suite::suite_json(&experiment, &models, sample);
    write("json", serde_json::to_string_pretty(&table).unwrap_or_default() + "\n")?;
    write("svg", crate::web::suite::chart_svg(&experiment, &models))?;
    write("md", markdown.clone())?;
    // The one-page picture the page prints, in English.
    let words = crate::web::i18n::Catalogue::new("en").map_err(Error::new)?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64());
    let date: String = crate::scoring::outputs::date_id(now).chars().take(10).collect();
    let picture = crate::web::suite::summary_svg(
        &experiment,
        &models,
        table.get("sample").filter(|s| !s.is_null()),
        &date,
        &words,
    );
    let summary = args.out.join(format!("suite_{}_summary.svg", experiment.experiment));
    std::fs::write(&summary, picture).map_err(|e| Error::new(format!("{}: {e}", summary.display())))?;
    print!("\n{markdown}");
    println!("\nwritten: {0}.md, {0}.json, {0}.svg, {0}_summary.svg", base.display());
    Ok(())
}

fn model_name(model: &Path) -> String {
    model.file_stem().and_then(|s| s.to_str()).unwrap_or("model").to_string()
}

fn model_results(experiment: &Experiment, model: &Path, dir: &Path) -> Result<ModelResults> {
    let mut by_run = BTreeMap::new();
    for spec in &experiment.runs {
        let (_, v) = verdicts(&dir.join(&spec.name), &spec.metric)?;
        if v.is_empty() {
            bail!("run `{}`: no samples in {}", spec.name, dir.join(&spec.name).display());
        }
        by_run.insert(spec.name.clone(), v);
    }
    Ok(ModelResults { model: model_name(model), results: experiment.results(&by_run)? })
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn signed(x: f64) -> String {
    format!("{:+.1}", 100.0 * x)
}

/// Markdown cells take no `|` or line break.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn markdown(experiment: &Experiment, results: &[ModelResults], sample: Option<crate::eval::Sample>) -> String {
    let mut md = format!("# {}\n\n{}\n", cell(&experiment.experiment), cell(&experiment.description));
    if let Some(source) = &experiment.source {
        let _ = writeln!(md, "\nSource: {}", cell(source));
    }
    if let Some(sample) = sample {
        let _ = writeln!(
            md,
            "\nEvery run scored the same {} documents, drawn at random with seed {} (Python's `random.Random({1}).sample`).",
            sample.size, sample.seed
        );
    }
    md += "\n## Runs\n\n| run | task | shots | order | seed | metric |\n| --- | --- | ---: | --- | ---: | --- |\n";
    for r in &experiment.runs {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&r.name),
            cell(&r.task),
            r.shots.map_or("task's".into(), |k| k.to_string()),
            cell(r.order.as_deref().unwrap_or("given")),
            r.seed.unwrap_or(1234),
            cell(&r.metric)
        );
    }
    md += "\n## Accuracy (%, 95 % interval)\n\n| model |";
    for r in &experiment.runs {
        let _ = write!(md, " {} |", cell(&r.name));
    }
    md += "\n| --- |";
    md += &" ---: |".repeat(experiment.runs.len());
    md += "\n";
    for m in results {
        let _ = write!(md, "| {} |", cell(&m.model));
        for r in &experiment.runs {
            let s = &m.results.runs[&r.name];
            let interval = s.ci95().map(|(lo, hi)| format!(" ({}–{})", percent(lo), percent(hi))).unwrap_or_default();
            let _ = write!(md, " {}{} n={} |", percent(s.mean), interval, s.n);
        }
        md += "\n";
    }
    if !experiment.compare.is_empty() {
        md += "\n## Comparisons (B − A, points)\n\n| model | A | B | items | B − A | 95 % interval | right in A only | right in B only | exact McNemar p |\n| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: |\n";
        for m in results {
            for (a, b, c) in &m.results.comparisons {
                let interval =
                    c.ci95.map(|(lo, hi)| format!("{} to {}", signed(lo), signed(hi))).unwrap_or_else(|| "–".into());
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {:.4} |",
                    cell(&m.model),
                    cell(a),
                    cell(b),
                    c.n,
                    signed(c.difference),
                    interval,
                    c.only_a,
                    c.only_b,
                    c.mcnemar_p
                );
            }
        }
    }
    if !experiment.swing.is_empty() {
        let _ = write!(
            md,
            "\n## Swings (largest − smallest accuracy, points; 95 % bootstrap interval, {SWING_REPLICATES} resamples of the items)\n\n| model | swing | runs | swing | 95 % interval |\n| --- | --- | --- | ---: | --- |\n"
        );
        for m in results {
            for ((name, s), spec) in m.results.swings.iter().zip(&experiment.swing) {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} to {} |",
                    cell(&m.model),
                    cell(name),
                    cell(&spec.runs.join(", ")),
                    percent(s.swing),
                    percent(s.ci95.0),
                    percent(s.ci95.1)
                );
            }
        }
    }
    md
}
