// LatestRequest: runs a short computation (a privacy preview, a calibration) on Qt's shared
// thread pool and hands its result to a receiver on the receiver's thread, only if no newer
// request was made meanwhile — the last request wins, so a slider dragged over fifty values
// costs the GUI thread nothing and shows the value it stopped at. Stale requests that have not
// started are skipped. One rule for dropping stale results, shared by every widget that asks.
#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace epsilon::ui {

class LatestRequest {
 public:
  LatestRequest() = default;
  ~LatestRequest() { m_state->generation.fetch_add(1); }  // results still in flight are dropped
  LatestRequest(const LatestRequest&) = delete;
  LatestRequest& operator=(const LatestRequest&) = delete;

  // Computes work() on the pool, then calls done(result) on `receiver`'s thread if this is still
  // the newest request and the receiver still exists. `work` must not touch Qt widgets.
  template <typename Result>
  void start(QObject* receiver, std::function<Result()> work,
             std::function<void(const Result&)> done) {
    const long long generation = m_state->generation.fetch_add(1) + 1;
    ++m_state->pending;
    QPointer<QObject> target(receiver);
    auto state = m_state;
    QThreadPool::globalInstance()->start([=] {
      const bool stale = state->generation.load() != generation;
      std::shared_ptr<Result> result;
      if (!stale) result = std::make_shared<Result>(work());
      QMetaObject::invokeMethod(
          target ? target.data() : QCoreApplication::instance(),
          [=] {
            --state->pending;
            if (result && target && state->generation.load() == generation) done(*result);
          },
          Qt::QueuedConnection);
    });
  }

  // Drops every request made so far: none of their results will be delivered.
  void cancel() { m_state->generation.fetch_add(1); }
  // True while a request has not come back (its result delivered or dropped).
  bool busy() const { return m_state->pending.load() > 0; }

 private:
  struct State {
    std::atomic<long long> generation{0};
    std::atomic<int> pending{0};
  };
  std::shared_ptr<State> m_state = std::make_shared<State>();
};

}  // namespace epsilon::ui
