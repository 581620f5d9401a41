// Constructors of the concrete privatizers, for makePrivatizer() (privatizer.cpp) only.
#pragma once

#include <memory>
#include <vector>

#include "core/privacy/privatizer.h"

namespace epsilon::privacy {

std::unique_ptr<Privatizer> makeClipPrivatizer(double clipNorm, bool perLayer,
                                               std::vector<ParameterSlice> slices);
std::unique_ptr<Privatizer> makeNoPrivatizer();
std::unique_ptr<Privatizer> makeTanhPrivatizer(double scale, double activeRange,
                                               Eigen::Index parameterCount);
std::unique_ptr<Privatizer> makeAdaptivePrivatizer(const PrivatizerOptions& options,
                                                   double expectedUnitsPerStep);

}  // namespace epsilon::privacy
