#include "base/session/dataset_store.h"

#include <QCoreApplication>
#include <sstream>

#include "base/jobs/job_service.h"
#include "core/data/registry.h"

namespace epsilon::ui {

DatasetStore& DatasetStore::instance() {
  static DatasetStore* store = [] {
    auto* s = new DatasetStore;
    if (QCoreApplication* app = QCoreApplication::instance()) s->moveToThread(app->thread());
    return s;  // lives as long as the process: its sets are shared pointers
  }();
  return *store;
}

std::string DatasetStore::key(const std::string& name, const data::DatasetOptions& o) {
  std::ostringstream k;
  k.precision(17);
  k << name << '\n'
    << o.noise << ' ' << o.size << ' ' << o.trainFraction << ' ' << o.seed << ' ' << o.maxTrain
    << ' ' << o.minorityClass << ' ' << o.minorityKeep;
  return k.str();
}

std::shared_ptr<const data::Dataset> DatasetStore::cached(
    const std::string& name, const data::DatasetOptions& options) const {
  std::lock_guard lock(m_mutex);
  const auto it = m_sets.find(key(name, options));
  return it == m_sets.end() ? nullptr : it->second;
}

void DatasetStore::keep(const std::string& k, std::shared_ptr<const data::Dataset> dataset) {
  std::lock_guard lock(m_mutex);
  m_sets.emplace(k, std::move(dataset));
}

std::shared_ptr<const data::Dataset> DatasetStore::load(const std::string& name,
                                                        const data::DatasetOptions& options) {
  if (auto held = cached(name, options)) return held;
  auto dataset = std::make_shared<const data::Dataset>(data::loadDataset(name, options));
  keep(key(name, options), dataset);
  return cached(name, options);  // the first copy kept wins when two workers raced
}

void DatasetStore::request(const QString& name, const data::DatasetOptions& options) {
  const std::string n = name.toStdString();
  if (auto held = cached(n, options)) {
    Q_EMIT loaded(name, held);
    return;
  }
  const std::string k = key(n, options);
  if (!m_loading.insert(k).second) return;  // its loaded() or failed() is on the way
  JobService::instance().start<std::shared_ptr<const data::Dataset>>(
      JobKind::DatasetLoad, tr("loading %1").arg(name), this,
      [this, n, options](JobContext&) { return load(n, options); },
      [this, name, k](const std::shared_ptr<const data::Dataset>& dataset) {
        m_loading.erase(k);
        Q_EMIT loaded(name, dataset);
      },
      [this, name, k](const QString& message) {
        m_loading.erase(k);
        Q_EMIT failed(name, message);
      });
}

void DatasetStore::clear() {
  std::lock_guard lock(m_mutex);
  m_sets.clear();
}

}  // namespace epsilon::ui
