// Licensed under the Apache License, Version 2.0.
// Run by JMeter's GUI at start-up (jsr223.init.file, passed as `stampede gui ... -J jsr223.init.file=...`): once the
// plan is loaded, selects its first Stampede sampler, then writes a PNG of the window (stampede.gui.png) and what
// the window shows (stampede.gui.state: title, selected panel, its labels). JMeter keeps running: the test ends it.
import java.awt.image.BufferedImage
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import javax.imageio.ImageIO
import javax.swing.JLabel
import javax.swing.SwingUtilities
import javax.swing.tree.TreePath
import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.util.JMeterUtils

def png = new File(JMeterUtils.getProperty('stampede.gui.png'))
def state = new File(JMeterUtils.getProperty('stampede.gui.state'))
// Optional WIDTHxHEIGHT for the window, so the documentation's pictures show whole panels (Xvfb has no window manager).
def size = JMeterUtils.getPropDefault('stampede.gui.size', '')

Thread.start('stampede-gui-select') {
    def deadline = System.currentTimeMillis() + 120_000
    def node = null
    while (node == null && System.currentTimeMillis() < deadline) {
        Thread.sleep(500)
        def gui = GuiPackage.getInstance()
        if (gui == null || gui.getMainFrame() == null || !gui.getMainFrame().isShowing()) continue
        node = gui.getTreeModel().getRoot().depthFirstEnumeration().toList()
                .find { it.getTestElement()?.getClass()?.getName()?.startsWith('io.stampede.sampler.') }
    }
    def lines = []
    if (node != null) {
        SwingUtilities.invokeAndWait {
            if (size) {
                def (w, h) = size.split('x').collect { it as int }
                GuiPackage.getInstance().getMainFrame().setBounds(0, 0, w, h)
            }
            def tree = GuiPackage.getInstance().getTreeListener().getJTree()
            def path = new TreePath(node.getPath())
            tree.expandPath(path.getParentPath())
            tree.setSelectionPath(path)
        }
        Thread.sleep(2000) // let the panel lay out and paint
        SwingUtilities.invokeAndWait {
            def gui = GuiPackage.getInstance()
            def frame = gui.getMainFrame()
            def image = new BufferedImage(frame.getWidth(), frame.getHeight(), BufferedImage.TYPE_INT_RGB)
            def g = image.createGraphics()
            frame.paint(g)
            g.dispose()
            ImageIO.write(image, 'png', png)
            lines << 'title=' + frame.getTitle()
            lines << 'selected=' + node.getTestElement().getName()
            lines << 'panel=' + gui.getCurrentGui().getClass().getName()
            def collect
            collect = { c ->
                if (c instanceof JLabel && c.isShowing()) lines << 'label=' + c.getText()
                c.getComponents().each { collect(it) }
            }
            collect(gui.getCurrentGui())
        }
    } else {
        lines << 'NOT FOUND: no Stampede sampler in the loaded plan'
    }
    // Written whole, then renamed: the test polls for this file and must never read half of it.
    def tmp = new File(state.path + '.tmp')
    tmp.text = lines.join('\n') + '\n'
    Files.move(tmp.toPath(), state.toPath(), StandardCopyOption.ATOMIC_MOVE)
}
