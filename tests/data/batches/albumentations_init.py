# estimate kind: albumentations pipelines built in __init__ (the taming-transformers family) and
# numpy's own arithmetic on the arrays they return
import albumentations
import albumentations as A
import numpy as np
from albumentations.pytorch import ToTensorV2
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    """A dict of the crop scaled to [-1, 1] in float32 (uint8 / 127.5 is float64 in numpy)."""

    def __init__(self, paths, size=256, random_crop=False):
        self.paths = paths
        self.size = size
        self.rescaler = albumentations.SmallestMaxSize(max_size=self.size)
        if not random_crop:
            self.cropper = albumentations.CenterCrop(height=self.size, width=self.size)
        else:
            self.cropper = albumentations.RandomCrop(height=self.size, width=self.size)
        self.preprocessor = albumentations.Compose([self.rescaler, self.cropper])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        example = dict()
        image = Image.open(self.paths[i])
        if not image.mode == "RGB":
            image = image.convert("RGB")
        image = np.array(image).astype(np.uint8)
        image = self.preprocessor(image=image)["image"]
        example["image"] = (image / 127.5 - 1.0).astype(np.float32)
        example["scaled"] = image / 127.5
        return example


class Segments(Dataset):
    """An image and a one-hot segmentation (np.eye of a cropped uint8 map: float64)."""

    def __init__(self, images, maps, size=64, n_labels=20):
        self.images, self.maps = images, maps
        self.n_labels = n_labels
        self.cropper = A.RandomCrop(height=size, width=size)
        self.to_tensor = A.Compose([A.Resize(48, 40), A.HorizontalFlip(p=0.5), A.Normalize(), ToTensorV2()])

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = np.array(Image.open(self.images[i]).convert("RGB"))
        segmentation = np.array(Image.open(self.maps[i]).convert("L"))
        segmentation = self.cropper(image=segmentation)["image"]
        return self.to_tensor(image=image)["image"], np.eye(self.n_labels)[segmentation], np.float32(segmentation)


def make(images, maps):
    return [
        DataLoader(Crops(images), batch_size=4, num_workers=2),
        DataLoader(Crops(images, size=96), batch_size=2, num_workers=2),
        DataLoader(Segments(images, maps), batch_size=3, num_workers=2),
        DataLoader(Segments(images, maps, 32, 10), batch_size=2, num_workers=2),  # by position
        DataLoader(Segments(images, maps, n_labels=7, size=48), batch_size=2, num_workers=2),
    ]
