// Licensed under the Apache License, Version 2.0.
// Run by JMeter's GUI at start-up (jsr223.init.file): waits for the plan to load, selects the sampler named by
// property stampede.gui.select in a window of stampede.gui.width x stampede.gui.height pixels, saves a PNG of the
// window, the panel's labels and where each of its fields lies against the visible part of the panel, then exits.
// With stampede.gui.save=true it first selects every sampler in turn (so each panel writes its fields back into its
// element, as a user's clicks would) and, after the picture, saves the plan with File > Save; the labels file then
// also lists the Add > Sampler menu ("menu=" lines).
import java.awt.image.BufferedImage
import javax.imageio.ImageIO
import java.awt.Frame
import java.awt.event.ActionEvent
import javax.swing.AbstractButton
import javax.swing.JTabbedPane
import javax.swing.JComboBox
import javax.swing.JLabel
import javax.swing.JScrollPane
import javax.swing.JViewport
import javax.swing.SwingUtilities
import javax.swing.text.JTextComponent
import javax.swing.tree.TreePath
import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.gui.action.ActionNames
import org.apache.jmeter.gui.action.ActionRouter
import org.apache.jmeter.gui.util.MenuFactory
import org.apache.jmeter.samplers.Sampler
import org.apache.jmeter.util.JMeterUtils

def select = JMeterUtils.getProperty('stampede.gui.select')
def png = new File(JMeterUtils.getProperty('stampede.gui.png'))
def labelsFile = new File(JMeterUtils.getProperty('stampede.gui.labels'))
def save = JMeterUtils.getPropDefault('stampede.gui.save', false)

Thread.start('stampede-gui-smoke') {
    def deadline = System.currentTimeMillis() + 90_000
    def node = null
    while (node == null && System.currentTimeMillis() < deadline) {
        Thread.sleep(500)
        def gui = GuiPackage.getInstance()
        if (gui == null || gui.getMainFrame() == null) continue
        def root = gui.getTreeModel().getRoot()
        node = root.depthFirstEnumeration().toList().find { it.getTestElement()?.getName() == select }
    }
    if (node == null) {
        labelsFile.text = "NOT FOUND: " + select + "\n"
        System.exit(3)
    }
    if (save) {
        def samplers = GuiPackage.getInstance().getTreeModel().getRoot().depthFirstEnumeration().toList()
                .findAll { it.getTestElement() instanceof Sampler }
        for (s in samplers) {
            SwingUtilities.invokeAndWait {
                def tree = GuiPackage.getInstance().getTreeListener().getJTree()
                def path = new TreePath(s.getPath())
                tree.expandPath(path.getParentPath())
                tree.setSelectionPath(path)
            }
            Thread.sleep(300)
        }
    }
    SwingUtilities.invokeAndWait {
        def gui = GuiPackage.getInstance()
        def frame = gui.getMainFrame()
        frame.setExtendedState(Frame.NORMAL)
        frame.setSize(JMeterUtils.getPropDefault('stampede.gui.width', 1024),
                JMeterUtils.getPropDefault('stampede.gui.height', 900))
        frame.validate()
        def tree = gui.getTreeListener().getJTree()
        def path = new TreePath(node.getPath())
        tree.expandPath(path.getParentPath())
        tree.setSelectionPath(path)
    }
    Thread.sleep(2000)
    SwingUtilities.invokeAndWait {
        def gui = GuiPackage.getInstance()
        def frame = gui.getMainFrame()
        def image = new BufferedImage(frame.getWidth(), frame.getHeight(), BufferedImage.TYPE_INT_RGB)
        def g = image.createGraphics()
        frame.paint(g)
        g.dispose()
        ImageIO.write(image, 'png', png)
        def labels = []
        def collect
        collect = { c ->
            if (c instanceof JLabel && c.isShowing()) labels << c.getText()
            if (c instanceof JTabbedPane) (0..<c.getTabCount()).each { labels << 'tab=' + c.getTitleAt(it) }
            if (c instanceof javax.swing.JComponent && c.getBorder() instanceof javax.swing.border.TitledBorder) {
                labels << c.getBorder().getTitle()
            }
            if (c.hasProperty('components')) c.getComponents().each { collect(it) }
        }
        collect(gui.getCurrentGui())
        // Every field against the part of the panel the user sees (JMeter shows it in a scroll pane).
        def panel = gui.getCurrentGui()
        def visible = panel.getVisibleRect()
        def fields = []
        def bounds
        bounds = { c ->
            if (c instanceof JTextComponent || c instanceof JComboBox || c instanceof AbstractButton) {
                // A text area scrolls inside its own pane: the pane is what has to be visible.
                def shown = c.getParent() instanceof JViewport && c.getParent().getParent() instanceof JScrollPane
                        ? c.getParent().getParent() : c
                if (c.isShowing()) {
                    def r = SwingUtilities.convertRectangle(shown.getParent(), shown.getBounds(), panel)
                    def name = c.getToolTipText() ?: (c instanceof AbstractButton ? c.getText() : c.getClass().getSimpleName())
                    fields << "field=${r.x},${r.y},${r.width},${r.height} ${name.take(40)}"
                }
                return
            }
            if (c.hasProperty('components')) c.getComponents().each { bounds(it) }
        }
        bounds(panel)
        labelsFile.text = "panel=" + panel.getClass().getName() + "\n" +
                "label=" + panel.getStaticLabel() + "\n" +
                "window=${frame.getWidth()}x${frame.getHeight()}\n" +
                "visible=${visible.x},${visible.y},${visible.width},${visible.height}\n" +
                fields.join("\n") + "\n" + labels.join("\n") + "\n"
        if (save) {
            def menu = MenuFactory.makeMenu(MenuFactory.SAMPLERS, ActionNames.ADD)
            labelsFile.append((0..<menu.getItemCount()).findAll { menu.getItem(it) != null }
                    .collect { 'menu=' + menu.getItem(it).getText() }.join("\n") + "\n")
            ActionRouter.getInstance().doActionNow(new ActionEvent(frame, ActionEvent.ACTION_PERFORMED, ActionNames.SAVE))
            labelsFile.append("saved=" + gui.getTestPlanFile() + "\n")
        }
    }
    System.exit(0)
}
