// Fuzz target: the preset file reader (base/io/preset_file.h, "epsilonlab-preset"), then what
// the CLI and the Presets menu do with an accepted preset before any data is loaded: its base
// experiment (plain and --quick) and, for train and accountant presets, its sweep points.
// Calibrate presets are not expanded here: that solves σ by bisection, not a parser's job.
#include "base/io/preset_file.h"
#include "fuzz_json_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  const auto json = fuzz::jsonObjectOf(data, size);
  if (!json) return 0;
  fuzz::expectCleanRejection([&] {
    const ui::Preset preset = ui::presetFromJson(*json, QStringLiteral("fuzz-preset.json"));
    for (const bool quick : {false, true}) {
      const auto base = ui::presetBaseConfig(preset, quick, QStringLiteral("mnist"));
      if (preset.kind != ui::PresetKind::Calibrate)
        ui::presetPoints(preset, base, quick, train::RunPlanInput{60'000, 1});
    }
  });
  return 0;
}
