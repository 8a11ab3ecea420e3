#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace fusiondiff {
struct TraceStore;
}

namespace fusiondiff::ui {

class AnalysisController;

// What the window shows until the first results: how to start (drop two traces, open the sample
// traces, or open A and B), and once one trace is loaded, that trace and a request for the other.
class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    // Follows the controller's sides: with one of them loaded, asks for the other (its Open
    // button the default) and shows what the loaded one holds.
    void showSides(const AnalysisController& controller);

    QLabel* title() const { return m_title; }
    QPushButton* openButton(int side) const { return m_open[side]; }
    QPushButton* sampleButton() const { return m_sampleButton; }
    QTextBrowser* oneTraceView() const { return m_oneTrace; }

signals:
    void openRequested(int side);
    void sampleTracesRequested();

private:
    QLabel* m_title = nullptr;
    QPushButton* m_sampleButton = nullptr;
    QPushButton* m_open[2] = { nullptr, nullptr };
    QTextBrowser* m_oneTrace = nullptr; // the one trace loaded
    const TraceStore* m_oneTraceStore = nullptr; // shown in m_oneTrace
};

} // namespace fusiondiff::ui
