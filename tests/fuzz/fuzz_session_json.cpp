// Fuzz target: the session file reader (base/io/session_file.h, "epsilonlab-session"): every
// run, its experiment and its history. An accepted session must save and reopen to the same
// JSON.
#include "base/io/session_file.h"
#include "fuzz_json_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  const auto json = fuzz::jsonObjectOf(data, size);
  if (!json) return 0;
  return fuzz::readThenRoundTrip(
      [&] { return ui::sessionFromJson(*json, QStringLiteral("fuzz-session.json")); },
      [](const std::vector<ui::RunRecord>& runs) {
        const QJsonObject written = ui::sessionToJson(runs);
        fuzz::requireSameJson(
            written,
            ui::sessionToJson(ui::sessionFromJson(written, QStringLiteral("fuzz-session.json"))),
            "session");
      });
}
