# estimate kind: timm's create_transform(input_size=...)
from PIL import Image
from timm.data import create_transform
from torch.utils.data import DataLoader, Dataset


class Photos(Dataset):
    def __init__(self, files, transform):
        self.files = files
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = Image.open(self.files[i]).convert("RGB")
        img = self.transform(img)
        return img, 0


loader = DataLoader(Photos(["a.jpg"], create_transform(input_size=(3, 192, 256), is_training=True)), batch_size=32, num_workers=4)
