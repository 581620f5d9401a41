#include "ui/widgets/sweep_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <limits>
#include <stdexcept>

#include "base/cluster/sweep_submission.h"
#include "core/train/private_tuning.h"

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
  buildClusterRows(form);
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

void SweepDialog::buildClusterRows(QFormLayout* form) {
  m_runOn = new QComboBox(this);
  m_runOn->setObjectName(QStringLiteral("runOn"));
  m_runOn->addItems({tr("this computer"), tr("Slurm cluster")});
  form->addRow(tr("Run on"), m_runOn);
  m_clusterBox = new QWidget(this);
  auto* rows = new QFormLayout(m_clusterBox);
  rows->setContentsMargins(0, 0, 0, 0);
  const auto line = [this, rows](const QString& label, const QString& name, const QString& tip) {
    auto* edit = new QLineEdit(m_clusterBox);
    edit->setObjectName(name);
    edit->setToolTip(tip);
    rows->addRow(label, edit);
    connect(edit, &QLineEdit::textChanged, this, &SweepDialog::refresh);
    return edit;
  };
  m_folder = line(tr("Job folder"), QStringLiteral("jobFolder"),
                  tr("A new folder the nodes can write to (a shared file system): the job "
                     "script, the logs and the run files land there"));
  m_cli = line(tr("CLI on the nodes"), QStringLiteral("nodeCli"),
               tr("The epsilonlab-cli each array task runs (it needs Qt Core only)"));
  m_partition = line(tr("Partition"), QStringLiteral("partition"), tr("Empty: Slurm's default"));
  m_time = line(tr("Time per task"), QStringLiteral("time"), tr("HH:MM:SS; empty: the default"));
  m_mem = line(tr("Memory per task"), QStringLiteral("mem"), tr("e.g. 2G; empty: the default"));
  const auto spin = [this, rows](const QString& label, const QString& name) {
    auto* box = new QSpinBox(m_clusterBox);
    box->setObjectName(name);
    box->setRange(0, 100000);
    box->setSpecialValueText(tr("Slurm's default"));
    rows->addRow(label, box);
    connect(box, &QSpinBox::valueChanged, this, &SweepDialog::refresh);
    return box;
  };
  m_cpus = spin(tr("CPUs per task"), QStringLiteral("cpusPerTask"));
  m_maxParallel = spin(tr("Tasks at once"), QStringLiteral("maxParallel"));
  form->addRow(m_clusterBox);
  connect(m_runOn, &QComboBox::currentIndexChanged, this, &SweepDialog::refresh);
}

bool SweepDialog::runOnCluster() const {
  return m_runOn->currentIndex() == 1;
}

void SweepDialog::setRunOnCluster(bool on) {
  m_runOn->setCurrentIndex(on ? 1 : 0);
}

cluster::SlurmSettings SweepDialog::slurmSettings() const {
  cluster::SlurmSettings s;
  s.partition = m_partition->text().trimmed();
  s.time = m_time->text().trimmed();
  s.mem = m_mem->text().trimmed();
  if (m_cpus->value() > 0) s.cpusPerTask = m_cpus->value();
  if (m_maxParallel->value() > 0) s.maxParallel = m_maxParallel->value();
  return s;
}

QString SweepDialog::jobFolder() const {
  const QString text = m_folder->text().trimmed();
  return text.isEmpty() ? QString() : QFileInfo(text).absoluteFilePath();
}

QString SweepDialog::nodeCli() const {
  const QString text = m_cli->text().trimmed();
  return text.isEmpty() ? QString() : QFileInfo(text).absoluteFilePath();
}

void SweepDialog::setSlurm(const QString& folder, const QString& cli,
                           const cluster::SlurmSettings& s) {
  m_folder->setText(folder);
  m_cli->setText(cli);
  m_partition->setText(s.partition);
  m_time->setText(s.time);
  m_mem->setText(s.mem);
  m_cpus->setValue(s.cpusPerTask.value_or(0));
  m_maxParallel->setValue(s.maxParallel.value_or(0));
}

QString SweepDialog::clusterProblem() const {
  if (jobFolder().isEmpty()) return tr("Job folder: give a new folder for the sweep");
  if (nodeCli().isEmpty()) return tr("CLI on the nodes: give the epsilonlab-cli they run");
  try {
    cluster::checkJobFolder(jobFolder());
    cluster::checkSettings(slurmSettings());
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
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
  setRunOnCluster(settings.value(key("runOn")).toString() == QLatin1String("slurm"));
  // A new folder each time, beside the last one: a folder holds one sweep.
  const QString parent =
      settings
          .value(key("folderParent"), QDir::home().filePath(QStringLiteral("epsilonlab-sweeps")))
          .toString();
  m_folder->setText(QDir(parent).filePath(
      QDateTime::currentDateTime().toString(QStringLiteral("'sweep-'yyyyMMdd-HHmmss"))));
  m_cli->setText(settings.value(key("cli"), cluster::cliBesideThisProgram()).toString());
  m_partition->setText(settings.value(key("partition")).toString());
  m_time->setText(settings.value(key("time")).toString());
  m_mem->setText(settings.value(key("mem")).toString());
  m_cpus->setValue(settings.value(key("cpusPerTask"), 0).toInt());
  m_maxParallel->setValue(settings.value(key("maxParallel"), 0).toInt());
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
  settings.setValue(key("runOn"),
                    runOnCluster() ? QStringLiteral("slurm") : QStringLiteral("here"));
  if (!jobFolder().isEmpty())
    settings.setValue(key("folderParent"), QFileInfo(jobFolder()).absolutePath());
  settings.setValue(key("cli"), m_cli->text().trimmed());
  settings.setValue(key("partition"), m_partition->text().trimmed());
  settings.setValue(key("time"), m_time->text().trimmed());
  settings.setValue(key("mem"), m_mem->text().trimmed());
  settings.setValue(key("cpusPerTask"), m_cpus->value());
  settings.setValue(key("maxParallel"), m_maxParallel->value());
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
  return train::expandSweep(m_base, axes());
}

std::vector<train::SweepPoint> SweepDialog::points(QString* error) const {
  try {
    std::vector<train::SweepPoint> points = grid();
    const auto tuning = privateTuning();
    if (!tuning) return points;
    if (runOnCluster())
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

void SweepDialog::refresh() {
  for (QWidget* w : {static_cast<QWidget*>(m_parameter[1]), static_cast<QWidget*>(m_values[1])})
    w->setEnabled(m_useSecond->isChecked());
  m_clusterBox->setVisible(runOnCluster());
  QString error;
  const auto expanded = points(&error);
  if (!expanded.empty() && runOnCluster()) error = clusterProblem();
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
  } else if (runOnCluster()) {
    m_summary->setText(tr("%n run(s) will be sent to Slurm as a job array.", nullptr,
                          static_cast<int>(expanded.size())));
  } else {
    m_summary->setText(tr("%n run(s) will train.", nullptr, static_cast<int>(expanded.size())));
  }
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
  adjustSize();
}

}  // namespace epsilon::ui
