// The kinds of privatizer, shared by the privatizers themselves and by the privacy report
// that accounts for them (one enum, so the two can never disagree).
#pragma once

namespace epsilon::privacy {

enum class PrivatizerKind { None, Clip, Tanh, Adaptive };

}  // namespace epsilon::privacy
