#include "ui/widgets/sweep_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <limits>
#include <stdexcept>

#include "core/train/private_tuning.h"
#include "ui/widgets/cluster_options.h"

namespace epsilon::ui {

namespace {
const QString kKey = QStringLiteral("sweep/");
QString key(const char* name) {
  return kKey + QLatin1String(name);
}
}  // namespace

std::vector<std::string> splitValues(const QString& text) {
  std::vector<std::string> values;
  for (const QString& part :
       text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
    values.push_back(part.toStdString());
  return values;
}

SweepDialog::SweepDialog(const train::ExperimentConfig& base, QWidget* parent)
    : QDialog(parent), m_base(base) {
  setWindowTitle(tr("Sweep"));
  auto* form = new QFormLayout(this);
  auto* intro = new QLabel(
      tr("Every combination of the values becomes a run of the panel's experiment with those "
         "parameters changed; the runs train side by side and the accuracy-vs-ε chart traces "
         "the frontier they span."));
  intro->setWordWrap(true);
  form->addRow(intro);
  QStringList names;
  for (const auto& n : train::sweepParameterNames()) names << QString::fromStdString(n);
  const QString defaults[2] = {QStringLiteral("0.5, 1, 2, 4"), QStringLiteral("1, 4")};
  for (int i = 0; i < 2; ++i) {
    m_parameter[i] = new QComboBox(this);
    m_parameter[i]->addItems(names);
    m_parameter[i]->setCurrentText(i == 0 ? QStringLiteral("noise_multiplier")
                                          : QStringLiteral("clip_norm"));
    m_values[i] = new QLineEdit(defaults[i], this);
    m_values[i]->setToolTip(
        tr("Values separated by commas or spaces; names for optimizer (sgd, momentum, adam, "
           "adagrad, rmsprop), privatizer (clip, tanh, adaptive, none) and noise_schedule "
           "(constant, time, step, exp)."));
    connect(m_parameter[i], &QComboBox::currentIndexChanged, this, &SweepDialog::refresh);
    connect(m_values[i], &QLineEdit::textChanged, this, &SweepDialog::refresh);
  }
  form->addRow(tr("Parameter"), m_parameter[0]);
  form->addRow(tr("Values"), m_values[0]);
  m_useSecond = new QCheckBox(tr("Vary a second parameter"), this);
  connect(m_useSecond, &QCheckBox::toggled, this, &SweepDialog::refresh);
  form->addRow(m_useSecond);
  form->addRow(tr("Second parameter"), m_parameter[1]);
  form->addRow(tr("Values"), m_values[1]);
  buildTuningRows(form);
  m_cluster = new ClusterOptions(QStringLiteral("sweep"), this);
  connect(m_cluster, &ClusterOptions::changed, this, &SweepDialog::refresh);
  form->addRow(m_cluster);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  form->addRow(m_summary);
  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run sweep"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(m_buttons);
  restore();
  refresh();
}

void SweepDialog::buildTuningRows(QFormLayout* form) {
  m_tuningLaw = new QComboBox(this);
  m_tuningLaw->setObjectName(QStringLiteral("privateTuning"));
  m_tuningLaw->addItem(tr("Off: train every point"), QString());
  m_tuningLaw->addItem(tr("Poisson number of runs"), QStringLiteral("poisson"));
  m_tuningLaw->addItem(tr("Geometric number of runs"), QStringLiteral("geometric"));
  m_tuningLaw->addItem(tr("Logarithmic number of runs"), QStringLiteral("log"));
  m_tuningLaw->setToolTip(
      tr("Private tuning: train a random number K of the grid's points, drawn at random with "
         "the panel's seed, and release only the best; its ε (Papernot & Steinke 2022) is "
         "shown beside the Sweep map. RDP accountant only."));
  m_tuningMean = new QDoubleSpinBox(this);
  m_tuningMean->setObjectName(QStringLiteral("privateTuningMean"));
  m_tuningMean->setRange(1.0, 100.0);
  m_tuningMean->setDecimals(1);
  m_tuningMean->setValue(4.0);
  m_tuningMean->setPrefix(tr("mean "));
  connect(m_tuningLaw, &QComboBox::currentIndexChanged, this, &SweepDialog::refresh);
  connect(m_tuningMean, &QDoubleSpinBox::valueChanged, this, &SweepDialog::refresh);
  form->addRow(tr("Private tuning"), m_tuningLaw);
  form->addRow(tr("Mean number of runs"), m_tuningMean);
}

std::optional<privacy::TuningDistribution> SweepDialog::privateTuning() const {
  const QString law = m_tuningLaw->currentData().toString();
  if (law.isEmpty()) return std::nullopt;
  const double shape = law == QLatin1String("poisson")     ? std::numeric_limits<double>::infinity()
                       : law == QLatin1String("geometric") ? 1.0
                                                           : 0.0;
  return privacy::TuningDistribution{m_tuningMean->value(), shape};
}

void SweepDialog::setPrivateTuning(const QString& law, double mean) {
  m_tuningLaw->setCurrentIndex(std::max(0, m_tuningLaw->findData(law)));
  m_tuningMean->setValue(mean);
}

void SweepDialog::restore() {
  const QSettings settings;
  for (int i = 0; i < 2; ++i) {
    const QString n = QString::number(i + 1);
    const QString parameter = settings.value(kKey + QStringLiteral("parameter") + n).toString();
    if (m_parameter[i]->findText(parameter) >= 0) m_parameter[i]->setCurrentText(parameter);
    m_values[i]->setText(
        settings.value(kKey + QStringLiteral("values") + n, m_values[i]->text()).toString());
  }
  m_useSecond->setChecked(settings.value(key("second"), false).toBool());
  setPrivateTuning(settings.value(key("tuning")).toString(),
                   settings.value(key("tuningMean"), m_tuningMean->value()).toDouble());
}

void SweepDialog::remember() const {
  QSettings settings;
  for (int i = 0; i < 2; ++i) {
    const QString n = QString::number(i + 1);
    settings.setValue(kKey + QStringLiteral("parameter") + n, m_parameter[i]->currentText());
    settings.setValue(kKey + QStringLiteral("values") + n, m_values[i]->text());
  }
  settings.setValue(key("second"), m_useSecond->isChecked());
  m_cluster->remember();
  settings.setValue(key("tuning"), m_tuningLaw->currentData().toString());
  settings.setValue(key("tuningMean"), m_tuningMean->value());
}

void SweepDialog::done(int result) {
  remember();
  QDialog::done(result);
}

void SweepDialog::setAxis(int which, const QString& parameter, const QString& values) {
  m_parameter[which]->setCurrentText(parameter);
  m_values[which]->setText(values);
  if (which == 1) m_useSecond->setChecked(true);
}

std::vector<train::SweepAxis> SweepDialog::axes() const {
  std::vector<train::SweepAxis> result;
  const int count = m_useSecond->isChecked() ? 2 : 1;
  for (int i = 0; i < count; ++i)
    result.push_back(
        {m_parameter[i]->currentText().toStdString(), splitValues(m_values[i]->text())});
  return result;
}

std::vector<train::SweepPoint> SweepDialog::grid() const {
  return train::expandSweep(m_base, axes(), m_target);
}

std::vector<train::SweepPoint> SweepDialog::points(QString* error) const {
  try {
    std::vector<train::SweepPoint> points = grid();
    const auto tuning = privateTuning();
    if (!tuning) return points;
    if (m_cluster->runOnCluster())
      throw std::runtime_error(tr("Private tuning runs on this computer only, not on a Slurm "
                                  "cluster.")
                                   .toStdString());
    train::checkTunable(m_base);
    train::PrivateTuningDraw draw = train::drawPrivateTuning(points, *tuning, m_base.training.seed);
    if (draw.points.empty())
      throw std::runtime_error(tr("Private tuning drew K = 0 runs with this seed: nothing would "
                                  "train or be released. Change the panel's seed or the mean.")
                                   .toStdString());
    return std::move(draw.points);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return {};
  }
}

void SweepDialog::setTargetEpsilon(std::optional<double> target) {
  m_target = target;
  refresh();
}

void SweepDialog::refresh() {
  for (QWidget* w : {static_cast<QWidget*>(m_parameter[1]), static_cast<QWidget*>(m_values[1])})
    w->setEnabled(m_useSecond->isChecked());
  QString error;
  const auto expanded = points(&error);
  if (!expanded.empty()) error = m_cluster->problem();
  const bool ok = !expanded.empty() && error.isEmpty();
  if (!ok) {
    m_summary->setText(
        QStringLiteral("<span style='color:#c00'>%1</span>").arg(error.toHtmlEscaped()));
  } else if (const auto tuning = privateTuning()) {
    m_summary->setText(tr("Private tuning: %1 run(s), drawn at random from the grid, will "
                          "train; released: the %2. What that costs is shown under the Sweep "
                          "map.")
                           .arg(expanded.size())
                           .arg(QString::fromStdString(privacy::tuningWords(*tuning))));
  } else if (m_cluster->runOnCluster()) {
    m_summary->setText(tr("%n run(s) will be sent to Slurm as a job array.", nullptr,
                          static_cast<int>(expanded.size())));
  } else {
    m_summary->setText(tr("%n run(s) will train.", nullptr, static_cast<int>(expanded.size())));
  }
  if (ok && expanded.front().targetEpsilon)
    m_summary->setText(m_summary->text() + QLatin1Char(' ') +
                       tr("Each run's σ is calibrated to its target ε for its own settings "
                          "(epochs, lot size, data) before it starts."));
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
  adjustSize();
}

}  // namespace epsilon::ui
