// Run files as the CLI writes them ({"format": "epsilonlab-run"}: `train --out`, and the
// run-*.json files of `sweep --out` and `reproduce --run-files`) read back as RunRecords, and
// what File › Open session opens: a session file, one run file (a one-run session) or a folder
// of run files (a sweep's output). Qt Core only.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

#include "base/io/run_record.h"
#include "base/io/run_verification.h"
#include "base/io/session_file.h"
#include "core/train/progress.h"

namespace epsilon::ui {

// One run file's content as a record: its experiment, status, message, every evaluation (a
// null ε, which older run files wrote for ∞, reads as ∞), the training losses those
// evaluations report, and the privacy label of the last one. Named after the sweep point's
// label when there is one, else `name`. Throws SessionError "<where>: <key path>: …".
RunRecord runRecordFromRunFile(const QJsonObject& json, const QString& where, const QString& name);

// Reads one run file (at most 256 MiB); the record is named after its sweep label or the
// file's base name. Throws SessionError naming the file.
RunRecord readRunFile(const QString& path);

// A run file (a sweep's) read back as the result it was written from, when its run finished
// (status "done"; nothing otherwise): `sweep --resume` keeps it instead of training again. The
// history holds each evaluation with its statement; the model and snapshots are not in a file.
// Throws SessionError naming the file when it cannot be read or is not a valid run file.
std::optional<train::RunResult> readFinishedRun(const QString& path);
// The same, whatever the run's status (done, diverged, failed, cancelled): what a report built
// from a cluster's run files reads (`reproduce --report-only`).
train::RunResult readRunResult(const QString& path);

// File › Open session: a session file's runs (ids as stored), a run file as a one-run session,
// or every *.json run file of a folder in name order (at most train::kMaxSweepRuns); run files
// get ids 1, 2, … Every run's ε is then checked against its settings (run_verification.h).
// Throws SessionError naming the file and what it expected (a session or run file, a folder
// holding run files).
// `missingRuns`, when given, receives how many runs of a sweep the folder lacks (its run files
// say how many points the sweep has: a sweep still running, or killed; `sweep --resume`
// finishes it), 0 otherwise. `saveSuggestion`, when given, receives
// saveSuggestionAfterOpening(path) without reading the file a second time.
// `watch` hears the share done and may cancel (File › Open session runs this as a job); a
// cancelled open returns no runs.
std::vector<RunRecord> openSessionOrRuns(const QString& path, int* missingRuns = nullptr,
                                         QString* saveSuggestion = nullptr,
                                         const OpenWatch& watch = {});

// Where File › Save session should propose to write after opening `path`: the file itself
// when it is a session file, else a new "<name>-session.json" beside the run file or folder,
// so that saving never writes a session over a CLI run file or into a run folder (where it
// would then be read as a run file).
QString saveSuggestionAfterOpening(const QString& path);

}  // namespace epsilon::ui
