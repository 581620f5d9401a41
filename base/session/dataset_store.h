// DatasetStore: the one cache of loaded data sets, keyed by the data set's name and every
// option that changes what is loaded (docs/ARCHITECTURE.md, "Session model"). Training
// runs, the model view, attacks and audits share one copy (Fashion-MNIST is ~200 MB in
// memory); loads run as jobs on the job service and arrive with loaded() or failed().
// GUI thread only, except load(), which workers may call.
#pragma once

#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "core/data/dataset.h"
#include "core/data/dataset_info.h"

namespace epsilon::ui {

class DatasetStore : public QObject {
  Q_OBJECT
 public:
  static DatasetStore& instance();

  // The loaded set, if the store holds it (null otherwise).
  std::shared_ptr<const data::Dataset> cached(const std::string& name,
                                              const data::DatasetOptions& options = {}) const;
  // Loads the set as a job unless it is held or already loading; loaded() or failed() follow
  // (loaded() at once when it is held).
  void request(const QString& name, const data::DatasetOptions& options = {});
  // Loads on the calling thread (a worker's), or returns the held copy; throws what the
  // loader throws.
  std::shared_ptr<const data::Dataset> load(const std::string& name,
                                            const data::DatasetOptions& options = {});
  void clear();  // forgets every held set (tests; a set in use lives on with its users)

 Q_SIGNALS:
  void loaded(const QString& name, std::shared_ptr<const epsilon::data::Dataset> dataset);
  void failed(const QString& name, const QString& message);

 private:
  DatasetStore() = default;
  static std::string key(const std::string& name, const data::DatasetOptions& options);
  void keep(const std::string& key, std::shared_ptr<const data::Dataset> dataset);

  mutable std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<const data::Dataset>> m_sets;  // guarded by m_mutex
  std::set<std::string> m_loading;                                     // GUI thread only
};

}  // namespace epsilon::ui
