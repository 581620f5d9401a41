// The private-tuning summary under the Sweep map (issue 28, item 3): what releasing the best of
// the runs costs, beside one run alone and all of them composed, each ε with its δ, accountant
// and sampling (base/io/tuning_summary.h computes it, as a job: it reads the data sets' sizes).
// It sums up the runs of the last private-tuning sweep, with the law their number was drawn
// from, or else the shown runs as a fixed sweep.
#pragma once

#include <QLabel>
#include <QList>
#include <optional>

#include "base/io/tuning_summary.h"
#include "base/jobs/job_service.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

class CoalescedRefresh;
class RunModel;

class TuningSummaryView : public QLabel {
  Q_OBJECT
 public:
  explicit TuningSummaryView(RunModel* model, QWidget* parent = nullptr);

  // The runs of a private-tuning sweep, the law K was drawn from and the grid each run's
  // settings were drawn from; an empty list goes back to the shown runs as a fixed sweep.
  void setTuningSweep(const QList<int>& runIds,
                      const std::optional<privacy::TuningDistribution>& law,
                      const std::vector<train::SweepPoint>& grid);
  // Asks for the summary now (tests); it arrives as a job result.
  void refreshNow();
  bool busy() const { return m_request.busy(); }

 Q_SIGNALS:
  void summaryShown();  // the text was replaced by a new summary

 private:
  void scheduleRefresh();
  void refresh();

  RunModel* m_model;
  CoalescedRefresh* m_refresh;
  LatestRequest m_request;
  QList<int> m_tuningRuns;
  std::optional<privacy::TuningDistribution> m_law;
  std::vector<train::SweepPoint> m_grid;
  QString m_signature;  // the law and the summed-up runs of the last request
};

}  // namespace epsilon::ui
