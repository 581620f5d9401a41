// Tab bars with a third of the style's space around each name: the central tabs (Charts,
// Attack, Sweep map, Per class) and the tabified docks (Model view, Help, Gradient norms) keep
// every name in view beside the docks of a 1024-pixel window in presentation mode. A bar that
// scrolls hides the tab a lesson or a class has to find (Charts when Per class is in front,
// Model view when Gradient norms is).
#pragma once

class QTabBar;

namespace epsilon::ui {

// Gives `bar` the tight spacing (once; a bar that has it is left alone).
void useTightTabs(QTabBar* bar);

}  // namespace epsilon::ui
