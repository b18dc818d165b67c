//! The course of a run as a state machine, without the DOM: which item the main worker is asked
//! for next, pause and resume, the end of a run, a failed item, the watchdog of a worker that
//! stopped answering, and what a pool helper is sent. The page feeds it events and carries out
//! every effect it returns (`page::control::apply`); everything it decides is tested natively
//! below: also when a run is prepared, started, imported, and whether a run whose worker crashed
//! is brought back.
//!
//! The page cannot decide a run's course by itself: the driver's state is private (the page reads
//! it through methods), and `update`'s effects are `#[must_use]`, a lint the page's module denies
//! (`web/mod.rs`), so an event whose effects are dropped does not compile.
//!
//! The run's rows themselves are `web::run::Run`'s (a row is kept once per item, whichever worker
//! sends it); the pool's helpers take the items the main worker does not hold (`page::pool`).

use super::protocol::ToWorker;
use super::run::Run;

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Idle,
    /// The model and the task are being loaded and prepared.
    Preparing,
    Running,
    Paused,
    Done,
}

impl Phase {
    /// The name on `#run[data-phase]`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Preparing => "preparing",
            Phase::Running => "running",
            Phase::Paused => "paused",
            Phase::Done => "done",
        }
    }
}

/// A fault the page injects before an item, once, for the tests (`?crash_item=N`, `?hang_item=N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Crash,
    Hang,
}

impl Fault {
    /// The message that makes a worker fail so.
    pub fn request(self) -> ToWorker {
        match self {
            Fault::Crash => ToWorker::Crash,
            Fault::Hang => ToWorker::Hang,
        }
    }
}

/// The run's course: see the module's comment.
#[derive(Debug, Clone, PartialEq)]
pub struct Driver {
    phase: Phase,
    /// The item the main worker was asked for and has not answered.
    scoring: Option<usize>,
    /// Bumped for each item asked of the main worker: an earlier request's watchdog does not fire.
    requests: u64,
    /// The same for the pool's helpers (a counter of their own, so that asking a helper never
    /// makes the main worker's watchdog stale).
    helper_requests: u64,
    /// The slowest answer so far, in ms: the watchdog waits 20 times that.
    slowest_ms: f64,
    /// The watchdog's floor, in seconds.
    watchdog_floor_s: u32,
    /// A delay before each item (`?pace=`), in ms.
    pace_ms: u32,
    crash_item: Option<usize>,
    hang_item: Option<usize>,
    /// While a replacement worker is brought back to where a crashed one was: the phase the run
    /// goes back to once its task is prepared again.
    recovering: Option<Phase>,
    /// Worker crashes since the last row kept: past [`MAX_CRASHES_IN_A_ROW`] a run is not brought
    /// back (a model whose every item crashes the worker).
    crashes_in_a_row: u32,
}

/// Crashes in a row after which a run is no longer brought back.
pub const MAX_CRASHES_IN_A_ROW: u32 = 3;

pub enum Event<'a> {
    /// The run button: load the model and prepare the task, asking for each item `pace_ms` after
    /// the last (`?pace=`); refused, with no effect, while a run is being prepared or going.
    Prepare { pace_ms: u32 },
    /// Loading the model failed (or it does not fit): a run being prepared is not.
    ModelFailed,
    /// Preparing the run failed (the task, the checkpoint, a replacement worker).
    PrepareFailed,
    /// The worker prepared the task: a run being brought back after a crash goes on where it was.
    TaskReady,
    /// The run's rows are restored from the checkpoint and it starts.
    Started,
    /// A saved run was opened from its samples file.
    Imported,
    /// A row was kept (from any worker), scored in `elapsed_ms`.
    RowKept { elapsed_ms: f64 },
    /// The main worker crashed (or its watchdog ran out) with `message`; `can_recover`: the run,
    /// its model request and its task files are there to bring it back with.
    Crashed { can_recover: bool, message: &'a str },
    /// Ask for more if the run is going: `main_ready` says whether the main worker holds (or is
    /// loading) the model, `busy` lists the items the pool's helpers hold.
    Pump { run: &'a Run, main_ready: bool, busy: &'a [usize] },
    /// The main worker answered its item (a row, or the item failed) after `elapsed_ms`.
    Answered { elapsed_ms: f64 },
    /// A worker could not score its item (an error it reported): the run pauses. `main`: the
    /// main worker's (which then holds no item).
    ItemError { main: bool },
    /// The pause button.
    TogglePause,
    /// The cancel button.
    Cancel,
    /// The watchdog of request `request` ran out.
    Watchdog { request: u64 },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send `fault` (if any), then ask the main worker for item `index` after `delay_ms`, and
    /// start watchdog `request`, which runs out after `watchdog_ms`.
    Ask { index: usize, delay_ms: u32, fault: Option<Fault>, request: u64, watchdog_ms: f64 },
    /// Let the pool's idle helpers take items.
    DispatchPool,
    /// Every item is settled: the run is done.
    Finished,
    /// The phase changed: redraw the controls, say so.
    Phase(Phase),
    /// The main worker has not answered item `index` within `seconds`: replace it as if it crashed.
    Stuck { index: usize, seconds: f64 },
    /// After a crash: item `index` (the one the worker held) is marked failed with `message`.
    MarkFailed { index: usize, message: String },
    /// After a crash: bring the run back in a new worker (its model and task sent again).
    Recover,
    /// After a crash the run is not brought back: the model is to be loaded again by hand.
    GiveUp,
    /// The run is back where it was (`Running` or `Paused`) after a crash.
    Recovered(Phase),
}

impl Driver {
    pub fn new(watchdog_floor_s: u32, crash_item: Option<usize>, hang_item: Option<usize>) -> Driver {
        Driver {
            phase: Phase::Idle,
            scoring: None,
            requests: 0,
            helper_requests: 0,
            slowest_ms: 0.0,
            watchdog_floor_s,
            pace_ms: 0,
            crash_item,
            hang_item,
            recovering: None,
            crashes_in_a_row: 0,
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The item the main worker holds, if any.
    pub fn scoring(&self) -> Option<usize> {
        self.scoring
    }

    /// The delay before each item, in ms (`?pace=`).
    pub fn pace_ms(&self) -> u32 {
        self.pace_ms
    }

    /// Whether a run is being brought back in a replacement worker.
    pub fn recovering(&self) -> bool {
        self.recovering.is_some()
    }

    /// The watchdog's limit for the next request: 20 times the slowest answer, at least the floor.
    fn watchdog_ms(&self) -> f64 {
        (20.0 * self.slowest_ms).max(1000.0 * self.watchdog_floor_s as f64)
    }

    /// The fault (for the tests) to send before item `index`, once: `?crash_item` / `?hang_item`
    /// fault whichever worker is asked for the item; `crash_any` (`?crash_helper=1`) the next one.
    fn fault(&mut self, index: usize, crash_any: bool) -> Option<Fault> {
        if self.crash_item == Some(index) || crash_any {
            self.crash_item = self.crash_item.filter(|&i| i != index);
            Some(Fault::Crash)
        } else if self.hang_item == Some(index) {
            self.hang_item = None;
            Some(Fault::Hang)
        } else {
            None
        }
    }

    /// A pool helper is asked for item `index`: its request id, its watchdog's limit and the
    /// fault to send first (`crash_helper`: `?crash_helper=1`, the first item asked of a helper).
    pub fn ask_helper(&mut self, index: usize, crash_helper: bool) -> (u64, f64, Option<Fault>) {
        self.helper_requests += 1;
        (self.helper_requests, self.watchdog_ms(), self.fault(index, crash_helper))
    }

    #[must_use = "the page carries out every effect the driver returns (page::control::apply)"]
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Pump { run, main_ready, busy } => {
                if self.phase != Phase::Running {
                    return Vec::new();
                }
                if run.next_index().is_none() {
                    self.phase = Phase::Done;
                    self.scoring = None;
                    return vec![Effect::Finished, Effect::Phase(Phase::Done)];
                }
                let next = if self.scoring.is_none() && main_ready { run.next_index_besides(busy) } else { None };
                let Some(index) = next else { return vec![Effect::DispatchPool] };
                self.scoring = Some(index);
                self.requests += 1;
                let fault = self.fault(index, false);
                vec![
                    Effect::Ask {
                        index,
                        delay_ms: self.pace_ms,
                        fault,
                        request: self.requests,
                        watchdog_ms: self.watchdog_ms(),
                    },
                    Effect::DispatchPool,
                ]
            }
            Event::Answered { elapsed_ms } => {
                self.scoring = None;
                self.slowest_ms = self.slowest_ms.max(elapsed_ms);
                Vec::new()
            }
            Event::ItemError { main } => {
                if main {
                    self.scoring = None;
                }
                if self.phase == Phase::Running {
                    self.phase = Phase::Paused;
                }
                vec![Effect::Phase(self.phase)]
            }
            Event::Prepare { pace_ms } => {
                if matches!(self.phase, Phase::Preparing | Phase::Running) {
                    return Vec::new();
                }
                self.pace_ms = pace_ms;
                // A new run: the crashes of the last one do not count against it.
                self.crashes_in_a_row = 0;
                self.phase = Phase::Preparing;
                vec![Effect::Phase(Phase::Preparing)]
            }
            Event::ModelFailed => {
                self.recovering = None;
                if self.phase == Phase::Preparing {
                    self.phase = Phase::Idle;
                }
                vec![Effect::Phase(self.phase)]
            }
            Event::PrepareFailed => {
                self.recovering = None;
                self.phase = Phase::Idle;
                vec![Effect::Phase(Phase::Idle)]
            }
            Event::TaskReady => match self.recovering.take() {
                Some(phase) => {
                    self.phase = phase;
                    vec![Effect::Recovered(phase), Effect::Phase(phase)]
                }
                None => Vec::new(),
            },
            Event::Started => {
                self.phase = Phase::Running;
                vec![Effect::Phase(Phase::Running)]
            }
            Event::Imported => {
                self.phase = Phase::Done;
                vec![Effect::Phase(Phase::Done)]
            }
            Event::RowKept { elapsed_ms } => {
                self.crashes_in_a_row = 0;
                self.slowest_ms = self.slowest_ms.max(elapsed_ms);
                Vec::new()
            }
            Event::Crashed { can_recover, message } => {
                self.crashes_in_a_row += 1;
                let failed =
                    self.scoring.take().map(|index| Effect::MarkFailed { index, message: message.to_string() });
                let mut effects: Vec<Effect> = failed.into_iter().collect();
                // A crash while a previous one was being recovered from keeps the phase from before it.
                let phase = self.recovering.take().unwrap_or(self.phase);
                if can_recover
                    && matches!(phase, Phase::Running | Phase::Paused)
                    && self.crashes_in_a_row <= MAX_CRASHES_IN_A_ROW
                {
                    self.recovering = Some(phase);
                    self.phase = Phase::Preparing;
                    effects.push(Effect::Recover);
                } else {
                    if matches!(phase, Phase::Running | Phase::Paused | Phase::Preparing) {
                        self.phase = Phase::Idle;
                    }
                    effects.push(Effect::GiveUp);
                }
                effects.push(Effect::Phase(self.phase));
                effects
            }
            Event::TogglePause => {
                self.phase = match self.phase {
                    Phase::Running => Phase::Paused,
                    Phase::Paused => Phase::Running,
                    other => return vec![Effect::Phase(other)],
                };
                vec![Effect::Phase(self.phase)]
            }
            // An item still being scored stays held (and watched): the main worker answers it
            // before anything sent after the cancel, or its watchdog replaces the worker.
            Event::Cancel => {
                self.phase = Phase::Idle;
                vec![Effect::Phase(Phase::Idle)]
            }
            Event::Watchdog { request } => match self.scoring {
                Some(index) if request == self.requests => {
                    vec![Effect::Stuck { index, seconds: self.watchdog_ms() / 1000.0 }]
                }
                _ => Vec::new(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::RunSettings;
    use crate::web::run::tests::{item, row};

    fn run(n: usize) -> Run {
        Run::new("m", "t", "f", RunSettings::default(), (0..n).map(|i| item(i, "en", 0)).collect())
    }

    fn running() -> Driver {
        let mut d = Driver::new(300, None, None);
        d.phase = Phase::Running;
        d
    }

    fn asked(effects: &[Effect]) -> Option<usize> {
        effects.iter().find_map(|e| match e {
            Effect::Ask { index, .. } => Some(*index),
            _ => None,
        })
    }

    #[test]
    fn the_main_worker_is_asked_for_one_item_at_a_time_in_order_and_the_run_finishes() {
        let mut r = run(3);
        let mut d = running();
        let pump = |d: &mut Driver, r: &Run| d.update(Event::Pump { run: r, main_ready: true, busy: &[] });
        assert_eq!(asked(&pump(&mut d, &r)), Some(0));
        assert_eq!(asked(&pump(&mut d, &r)), None, "item 0 is not answered yet");
        r.record(row(0, [0.0, -1.0, -2.0], 0));
        let _ = d.update(Event::Answered { elapsed_ms: 40.0 });
        // Item 1 is a helper's: the main worker takes item 2.
        assert_eq!(asked(&d.update(Event::Pump { run: &r, main_ready: true, busy: &[1] })), Some(2));
        r.record(row(2, [0.0, -1.0, -2.0], 0));
        let _ = d.update(Event::Answered { elapsed_ms: 10.0 });
        assert_eq!(asked(&pump(&mut d, &r)), Some(1), "the helper's item, once it lets go of it");
        r.record(row(1, [0.0, -1.0, -2.0], 0));
        let _ = d.update(Event::Answered { elapsed_ms: 10.0 });
        assert_eq!(pump(&mut d, &r), [Effect::Finished, Effect::Phase(Phase::Done)]);
        assert_eq!(d.phase, Phase::Done);
        assert!(pump(&mut d, &r).is_empty(), "a finished run asks for nothing");
        assert_eq!(d.slowest_ms, 40.0);
    }

    #[test]
    fn a_paused_run_asks_for_nothing_until_it_resumes() {
        let r = run(2);
        let mut d = running();
        assert_eq!(d.update(Event::TogglePause), [Effect::Phase(Phase::Paused)]);
        assert!(d.update(Event::Pump { run: &r, main_ready: true, busy: &[] }).is_empty());
        assert_eq!(d.update(Event::TogglePause), [Effect::Phase(Phase::Running)]);
        assert_eq!(asked(&d.update(Event::Pump { run: &r, main_ready: true, busy: &[] })), Some(0));
        // Without a model in the main worker, only the pool is asked.
        let mut d = running();
        assert_eq!(d.update(Event::Pump { run: &r, main_ready: false, busy: &[] }), [Effect::DispatchPool]);
    }

    #[test]
    fn an_item_error_pauses_and_cancel_stops() {
        let r = run(2);
        let mut d = running();
        let _ = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert_eq!(d.update(Event::ItemError { main: true }), [Effect::Phase(Phase::Paused)]);
        assert_eq!((d.phase, d.scoring), (Phase::Paused, None));
        assert_eq!(d.update(Event::Cancel), [Effect::Phase(Phase::Idle)]);
        assert!(d.update(Event::Pump { run: &r, main_ready: true, busy: &[] }).is_empty());
        // An item in flight at the cancel stays held and watched until it is answered.
        let mut d = running();
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        let Some(Effect::Ask { request, .. }) = effects.first().cloned() else { panic!("{effects:?}") };
        let _ = d.update(Event::Cancel);
        assert_eq!(d.scoring, Some(0));
        assert!(matches!(d.update(Event::Watchdog { request })[..], [Effect::Stuck { index: 0, .. }]));
    }

    #[test]
    fn a_crash_brings_the_run_back_where_it_was_until_three_in_a_row() {
        let r = run(3);
        let mut d = running();
        let _ = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert_eq!(
            d.update(Event::Crashed { can_recover: true, message: "boom" }),
            [Effect::MarkFailed { index: 0, message: "boom".into() }, Effect::Recover, Effect::Phase(Phase::Preparing)]
        );
        // A second crash while the first is being recovered from keeps the phase from before it.
        assert_eq!(
            d.update(Event::Crashed { can_recover: true, message: "boom" }),
            [Effect::Recover, Effect::Phase(Phase::Preparing)]
        );
        assert_eq!(d.update(Event::TaskReady), [Effect::Recovered(Phase::Running), Effect::Phase(Phase::Running)]);
        assert_eq!(d.update(Event::Crashed { can_recover: true, message: "boom" })[0], Effect::Recover);
        let _ = d.update(Event::TaskReady);
        // The fourth crash in a row without a row kept: the run is not brought back.
        assert_eq!(
            d.update(Event::Crashed { can_recover: true, message: "boom" }),
            [Effect::GiveUp, Effect::Phase(Phase::Idle)]
        );
        // A row kept starts the count again; a paused run comes back paused.
        let mut d = running();
        d.crashes_in_a_row = 3;
        let _ = d.update(Event::RowKept { elapsed_ms: 0.0 });
        let _ = d.update(Event::TogglePause);
        assert_eq!(d.update(Event::Crashed { can_recover: true, message: "boom" })[0], Effect::Recover);
        assert_eq!(d.update(Event::TaskReady)[0], Effect::Recovered(Phase::Paused));
        // Nothing to bring back with, or nothing running: no recovery.
        let mut d = running();
        assert_eq!(
            d.update(Event::Crashed { can_recover: false, message: "boom" }),
            [Effect::GiveUp, Effect::Phase(Phase::Idle)]
        );
        let mut d = Driver::new(300, None, None);
        assert_eq!(
            d.update(Event::Crashed { can_recover: true, message: "boom" }),
            [Effect::GiveUp, Effect::Phase(Phase::Idle)]
        );
    }

    #[test]
    fn a_run_is_prepared_once_and_a_failure_to_prepare_leaves_it_idle() {
        let mut d = Driver::new(300, None, None);
        assert_eq!(d.update(Event::Prepare { pace_ms: 0 }), [Effect::Phase(Phase::Preparing)]);
        assert!(d.update(Event::Prepare { pace_ms: 0 }).is_empty(), "already being prepared");
        assert!(d.update(Event::TaskReady).is_empty(), "a fresh run: nothing to recover");
        assert_eq!(d.update(Event::Started), [Effect::Phase(Phase::Running)]);
        assert!(d.update(Event::Prepare { pace_ms: 0 }).is_empty(), "already running");
        // A model error stops a run being prepared, not one that is going.
        assert_eq!(d.update(Event::ModelFailed), [Effect::Phase(Phase::Running)]);
        let mut d = Driver::new(300, None, None);
        let _ = d.update(Event::Prepare { pace_ms: 0 });
        assert_eq!(d.update(Event::ModelFailed), [Effect::Phase(Phase::Idle)]);
        let _ = d.update(Event::Prepare { pace_ms: 0 });
        assert_eq!(d.update(Event::PrepareFailed), [Effect::Phase(Phase::Idle)]);
        assert_eq!(d.update(Event::Imported), [Effect::Phase(Phase::Done)]);
        // A helper's item error pauses the run without touching the main worker's item.
        let r = run(2);
        let mut d = running();
        let _ = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert_eq!(d.update(Event::ItemError { main: false }), [Effect::Phase(Phase::Paused)]);
        assert_eq!(d.scoring, Some(0));
    }

    #[test]
    fn a_prepared_run_keeps_its_pace_and_starts_its_crash_count_again() {
        let r = run(2);
        let mut d = Driver::new(300, None, None);
        d.crashes_in_a_row = MAX_CRASHES_IN_A_ROW;
        assert_eq!(d.update(Event::Prepare { pace_ms: 125 }), [Effect::Phase(Phase::Preparing)]);
        assert_eq!((d.pace_ms(), d.crashes_in_a_row), (125, 0));
        // A second press while it is prepared changes nothing, the pace included.
        assert!(d.update(Event::Prepare { pace_ms: 0 }).is_empty());
        assert_eq!(d.pace_ms(), 125);
        let _ = d.update(Event::Started);
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert!(matches!(effects[0], Effect::Ask { index: 0, delay_ms: 125, .. }), "{effects:?}");
        // The crashed item is marked failed with the worker's message.
        let effects = d.update(Event::Crashed { can_recover: true, message: "unreachable executed" });
        assert_eq!(effects[0], Effect::MarkFailed { index: 0, message: "unreachable executed".into() });
        assert!(d.recovering());
    }

    #[test]
    fn a_row_from_any_worker_raises_the_watchdogs_limit() {
        let r = run(2);
        let mut d = running();
        // A helper's slow row counts as the main worker's own answers do.
        assert!(d.update(Event::RowKept { elapsed_ms: 40_000.0 }).is_empty());
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        let Some(Effect::Ask { watchdog_ms, .. }) = effects.first().cloned() else { panic!("{effects:?}") };
        assert_eq!(watchdog_ms, 800_000.0, "20 × 40 s");
        assert_eq!(d.ask_helper(1, false).1, 800_000.0);
    }

    #[test]
    fn the_watchdog_fires_only_for_the_request_still_unanswered_after_twenty_times_the_slowest() {
        let r = run(3);
        let mut d = running();
        d.slowest_ms = 30_000.0;
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        let Some(Effect::Ask { request, watchdog_ms, .. }) = effects.first().cloned() else { panic!("{effects:?}") };
        assert_eq!(watchdog_ms, 600_000.0, "20 × 30 s, above the 300 s floor");
        assert_eq!(d.update(Event::Watchdog { request }), [Effect::Stuck { index: 0, seconds: 600.0 }]);
        let _ = d.update(Event::Answered { elapsed_ms: 1.0 });
        assert!(d.update(Event::Watchdog { request }).is_empty(), "answered: its watchdog is stale");
        let _ = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert!(d.update(Event::Watchdog { request }).is_empty(), "an earlier request's watchdog");
        // Asking the pool's helpers does not make the main worker's watchdog stale.
        let (helper_request, _, _) = d.ask_helper(2, false);
        assert_eq!(helper_request, 1, "the helpers count their own requests");
        assert!(
            matches!(d.update(Event::Watchdog { request: request + 1 })[..], [Effect::Stuck { index: 0, .. }]),
            "the main worker asked again for item 0, still without a row"
        );
    }

    #[test]
    fn faults_for_the_tests_are_sent_once_before_their_item_and_pace_delays_each_ask() {
        let mut r = run(2);
        let mut d = Driver::new(300, Some(0), Some(1));
        assert_eq!(d.update(Event::Prepare { pace_ms: 250 }), [Effect::Phase(Phase::Preparing)]);
        assert_eq!(d.update(Event::Started), [Effect::Phase(Phase::Running)]);
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert!(
            matches!(effects[0], Effect::Ask { index: 0, delay_ms: 250, fault: Some(Fault::Crash), .. }),
            "{effects:?}"
        );
        // The crashed item is asked again (the page marks it failed or retries): no second fault.
        let _ = d.update(Event::Answered { elapsed_ms: 0.0 });
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert!(matches!(effects[0], Effect::Ask { index: 0, fault: None, .. }), "{effects:?}");
        r.record(row(0, [0.0, -1.0, -2.0], 0));
        let _ = d.update(Event::Answered { elapsed_ms: 0.0 });
        let effects = d.update(Event::Pump { run: &r, main_ready: true, busy: &[] });
        assert!(matches!(effects[0], Effect::Ask { index: 1, fault: Some(Fault::Hang), .. }), "{effects:?}");
        // A helper asked for a faulted item gets the fault instead, once; `?crash_helper` any item.
        let mut d = Driver::new(300, Some(3), None);
        assert_eq!(d.ask_helper(3, false).2, Some(Fault::Crash));
        assert_eq!(d.ask_helper(3, false).2, None);
        assert_eq!(d.ask_helper(4, true).2, Some(Fault::Crash));
    }
}
