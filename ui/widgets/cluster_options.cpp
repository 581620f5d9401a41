#include "ui/widgets/cluster_options.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include "base/cluster/sweep_submission.h"

namespace epsilon::ui {

namespace {
// The Sweep dialog's keys (older settings read unchanged).
QString key(const char* name) {
  return QStringLiteral("sweep/") + QLatin1String(name);
}
}  // namespace

ClusterOptions::ClusterOptions(const QString& folderStem, QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
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
    connect(edit, &QLineEdit::textChanged, this, &ClusterOptions::changed);
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
    connect(box, &QSpinBox::valueChanged, this, &ClusterOptions::changed);
    return box;
  };
  m_cpus = spin(tr("CPUs per task"), QStringLiteral("cpusPerTask"));
  m_maxParallel = spin(tr("Tasks at once"), QStringLiteral("maxParallel"));
  form->addRow(m_clusterBox);
  connect(m_runOn, &QComboBox::currentIndexChanged, this, [this] {
    m_clusterBox->setVisible(runOnCluster());
    Q_EMIT changed();
  });
  restore(folderStem);
  m_clusterBox->setVisible(runOnCluster());
}

bool ClusterOptions::runOnCluster() const {
  return m_runOn->currentIndex() == 1;
}

void ClusterOptions::setRunOnCluster(bool on) {
  m_runOn->setCurrentIndex(on ? 1 : 0);
}

cluster::SlurmSettings ClusterOptions::slurmSettings() const {
  cluster::SlurmSettings s;
  s.partition = m_partition->text().trimmed();
  s.time = m_time->text().trimmed();
  s.mem = m_mem->text().trimmed();
  if (m_cpus->value() > 0) s.cpusPerTask = m_cpus->value();
  if (m_maxParallel->value() > 0) s.maxParallel = m_maxParallel->value();
  return s;
}

QString ClusterOptions::jobFolder() const {
  const QString text = m_folder->text().trimmed();
  return text.isEmpty() ? QString() : QFileInfo(text).absoluteFilePath();
}

QString ClusterOptions::nodeCli() const {
  const QString text = m_cli->text().trimmed();
  return text.isEmpty() ? QString() : QFileInfo(text).absoluteFilePath();
}

void ClusterOptions::setSlurm(const QString& folder, const QString& cli,
                              const cluster::SlurmSettings& s) {
  m_folder->setText(folder);
  m_cli->setText(cli);
  m_partition->setText(s.partition);
  m_time->setText(s.time);
  m_mem->setText(s.mem);
  m_cpus->setValue(s.cpusPerTask.value_or(0));
  m_maxParallel->setValue(s.maxParallel.value_or(0));
}

QString ClusterOptions::problem() const {
  if (!runOnCluster()) return {};
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

bool ClusterOptions::rememberedOnCluster() {
  return QSettings().value(key("runOn")).toString() == QLatin1String("slurm");
}

void ClusterOptions::rememberOnCluster(bool on) {
  QSettings().setValue(key("runOn"), on ? QStringLiteral("slurm") : QStringLiteral("here"));
}

void ClusterOptions::restore(const QString& folderStem) {
  const QSettings settings;
  setRunOnCluster(rememberedOnCluster());
  // A new folder each time, beside the last one: a folder holds one sweep.
  const QString parent =
      settings
          .value(key("folderParent"), QDir::home().filePath(QStringLiteral("epsilonlab-sweeps")))
          .toString();
  m_folder->setText(QDir(parent).filePath(
      folderStem + QDateTime::currentDateTime().toString(QStringLiteral("'-'yyyyMMdd-HHmmss"))));
  m_cli->setText(settings.value(key("cli"), cluster::cliBesideThisProgram()).toString());
  m_partition->setText(settings.value(key("partition")).toString());
  m_time->setText(settings.value(key("time")).toString());
  m_mem->setText(settings.value(key("mem")).toString());
  m_cpus->setValue(settings.value(key("cpusPerTask"), 0).toInt());
  m_maxParallel->setValue(settings.value(key("maxParallel"), 0).toInt());
}

void ClusterOptions::remember() const {
  rememberOnCluster(runOnCluster());
  QSettings settings;
  if (!jobFolder().isEmpty())
    settings.setValue(key("folderParent"), QFileInfo(jobFolder()).absolutePath());
  settings.setValue(key("cli"), m_cli->text().trimmed());
  settings.setValue(key("partition"), m_partition->text().trimmed());
  settings.setValue(key("time"), m_time->text().trimmed());
  settings.setValue(key("mem"), m_mem->text().trimmed());
  settings.setValue(key("cpusPerTask"), m_cpus->value());
  settings.setValue(key("maxParallel"), m_maxParallel->value());
}

ClusterOptionsDialog::ClusterOptionsDialog(const QString& title, const QString& folderStem,
                                           QWidget* parent)
    : QDialog(parent), m_options(new ClusterOptions(folderStem, this)) {
  setWindowTitle(title);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_options);
  auto* problem = new QLabel(this);
  problem->setWordWrap(true);
  layout->addWidget(problem);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  const auto refresh = [this, problem, buttons] {
    const QString error = m_options->problem();
    problem->setText(
        error.isEmpty()
            ? QString()
            : QStringLiteral("<span style='color:#c00'>%1</span>").arg(error.toHtmlEscaped()));
    buttons->button(QDialogButtonBox::Ok)
        ->setText(m_options->runOnCluster() ? tr("Send to Slurm") : tr("Run here"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
    adjustSize();
  };
  connect(m_options, &ClusterOptions::changed, this, refresh);
  refresh();
}

void ClusterOptionsDialog::done(int result) {
  m_options->remember();
  QDialog::done(result);
}

}  // namespace epsilon::ui
