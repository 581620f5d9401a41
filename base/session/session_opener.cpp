#include "base/session/session_opener.h"

#include <QTimer>
#include <algorithm>
#include <iterator>

#include "base/io/run_file.h"
#include "base/io/run_verification.h"
#include "base/session/run_model.h"

namespace epsilon::ui {

namespace {

// What the job hands back: shared, so that 10,000 records are not copied on delivery.
struct Opened {
  std::vector<RunRecord> runs;
  int missing = 0;
  QString suggestion;
};

}  // namespace

struct SessionOpener::Arriving {
  std::shared_ptr<Opened> opened;
  std::size_t next = 0;
  std::size_t chunk = kFirstChunk;
  OpenOutcome outcome;
};

SessionOpener::SessionOpener(RunModel* runs, QObject* parent)
    : QObject(parent), m_runs(runs), m_chunkTimer(new QTimer(this)) {
  m_chunkTimer->setSingleShot(true);
  m_chunkTimer->setInterval(0);
  connect(m_chunkTimer, &QTimer::timeout, this, &SessionOpener::addNextChunk);
  connect(&JobService::instance(), &JobService::jobProgress, this,
          [this](JobId id, double fraction, const QString&) {
            if (id == m_job && id != 0) Q_EMIT progress(fraction);
          });
}

SessionOpener::~SessionOpener() {
  if (m_job) JobService::instance().cancel(m_job);
}

void SessionOpener::open(const QString& path) {
  if (m_arriving) {
    // The runs of the open before are being added: they are all added now, then this one starts.
    while (m_arriving) addNextChunk();
  }
  cancel();
  m_path = path;
  m_job = JobService::instance().start<std::shared_ptr<Opened>>(
      JobKind::SessionOpen, tr("opening %1").arg(path), this,
      [path](JobContext& context) {
        auto opened = std::make_shared<Opened>();
        OpenWatch watch{context.cancelFlag(),
                        [&context](double fraction) { context.setProgress(fraction); }};
        opened->runs = openSessionOrRuns(path, &opened->missing, &opened->suggestion, watch);
        return opened;
      },
      [this](const std::shared_ptr<Opened>& opened) {
        m_job = 0;
        m_arriving = std::make_unique<Arriving>();
        m_arriving->opened = opened;
        OpenOutcome& outcome = m_arriving->outcome;
        outcome.path = m_path;
        outcome.saveSuggestion = opened->suggestion;
        outcome.count = static_cast<int>(opened->runs.size());
        outcome.missing = opened->missing;
        outcome.forged = static_cast<int>(
            std::count_if(opened->runs.begin(), opened->runs.end(), hasEpsilonMismatch));
        Q_EMIT replacing(m_path);
        addNextChunk();
      },
      [this](const QString& message) {
        m_job = 0;
        OpenOutcome outcome;
        outcome.path = m_path;
        outcome.error = message;
        Q_EMIT finished(outcome);
      });
}

bool SessionOpener::cancel() {
  if (m_job == 0) return false;
  JobService::instance().cancel(m_job);  // a cancelled job delivers nothing
  m_job = 0;
  OpenOutcome outcome;
  outcome.path = m_path;
  outcome.cancelled = true;
  Q_EMIT finished(outcome);
  return true;
}

void SessionOpener::addNextChunk() {
  if (!m_arriving) return;
  std::vector<RunRecord>& runs = m_arriving->opened->runs;
  const std::size_t begin = m_arriving->next;
  const std::size_t end = std::min(runs.size(), begin + m_arriving->chunk);
  m_arriving->chunk *= 4;
  if (end < runs.size()) m_runs->setArriving(true);
  m_runs->addRuns(std::vector<RunRecord>(std::make_move_iterator(runs.begin() + begin),
                                         std::make_move_iterator(runs.begin() + end)));
  m_arriving->next = end;
  if (end < runs.size()) {
    m_chunkTimer->start();  // the window paints between chunks
    return;
  }
  const OpenOutcome outcome = m_arriving->outcome;
  m_arriving.reset();
  m_runs->setArriving(false);
  Q_EMIT finished(outcome);
}

}  // namespace epsilon::ui
