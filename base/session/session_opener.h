// SessionOpener: File › Open session without holding up the window. The session file, run file
// or folder of run files is read and every run's ε checked against its settings
// (openSessionOrRuns) as one job on the job service, with progress and cancel; the runs then
// reach the RunModel on the GUI thread in chunks, so the window paints and the charts draw
// while 10,000 runs come in. A file that cannot be opened changes nothing (the error names
// the file and the run), and neither does an open cancelled while it reads.
// GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "base/io/run_record.h"
#include "base/jobs/job_service.h"

class QTimer;

namespace epsilon::ui {

class RunModel;

// How an open ended.
struct OpenOutcome {
  QString path;
  QString error;           // empty when the runs are in
  bool cancelled = false;  // cancelled while reading: the runs on screen are untouched
  QString saveSuggestion;  // saveSuggestionAfterOpening(path)
  int count = 0;           // runs opened
  int missing = 0;         // runs a sweep folder lacks
  int forged = 0;          // runs whose stored ε did not match their settings
};

class SessionOpener : public QObject {
  Q_OBJECT
 public:
  // Runs added in the first turn of the event loop once the file is read and checked; each
  // next chunk is four times bigger (the Runs table takes each chunk; the views that draw
  // every run wait for the last, RunModel::setArriving, and draw once).
  static constexpr std::size_t kFirstChunk = 500;

  explicit SessionOpener(RunModel* runs, QObject* parent = nullptr);
  ~SessionOpener() override;

  // Starts opening `path`; an open under way is cancelled first. Returns at once: replacing()
  // and then finished() follow on this thread.
  void open(const QString& path);
  // True from open() until finished().
  bool busy() const { return m_job != 0 || m_arriving != nullptr; }
  QString path() const { return m_path; }  // the file last asked for
  // Stops an open that is still reading and checking: finished() says cancelled, and the runs
  // on screen are as they were. False when there is nothing to stop or the runs have begun
  // to arrive (they are all in a moment later).
  bool cancel();

 Q_SIGNALS:
  // The share read and checked, in [0, 1].
  void progress(double fraction);
  // The file is good and its runs are about to be added: whoever owns the session clears it
  // now (cancels training, forgets the runs on screen).
  void replacing(const QString& path);
  void finished(const epsilon::ui::OpenOutcome& outcome);

 private:
  struct Arriving;
  void addNextChunk();

  RunModel* m_runs;
  JobId m_job = 0;
  QString m_path;
  std::unique_ptr<Arriving> m_arriving;  // the runs of a finished job being added
  QTimer* m_chunkTimer;
};

}  // namespace epsilon::ui
